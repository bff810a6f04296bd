import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeOn } from './axe';

/**
 * Comparing strategies on the sample corpus: choose and order the columns (kept in the URL
 * across a reload, unknown ids named), read the overlap strip, then compare two side by
 * side with every sentence marked shared or only-this-one, the counts matching the marks.
 */

// axe's script is injected into the page, which the page's CSP would refuse.
test.use({ bypassCSP: true });

const NAIVE = 'Naive chunks · vector (baseline)';
const WINDOWS = 'Sentence windows · vector';
const HYBRID = 'Hybrid RRF · windows';

async function shownColumns(page: Page): Promise<string[]> {
  return page.locator('.columns').getByRole('region').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
}

/** The distinct sentences marked shared and only-here in one compared pane. */
async function marks(pane: Locator): Promise<{ shared: number; only: number }> {
  const distinct = (cls: string) => pane.locator(`.${cls}[data-sentence]`).evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-sentence'))).size);
  return { shared: await distinct('cmp-shared'), only: await distinct('cmp-only') };
}

test('a user chooses and orders columns, reads their overlap, and compares two side by side', async ({ page }, info) => {
  test.setTimeout(300_000);
  // An unknown column id in a shared link is ignored, and the page says so.
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local&cols=window,bogus,naive,automerge');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('list', { name: 'URL notices' })).toContainText('ignored unknown columns in cols: bogus');
  await expect(page).toHaveURL(/cols=window%2Cnaive%2Cautomerge(&|$)/);

  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  // Every vector in place: the columns no longer change while they are compared.
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(8, { timeout: 180_000 });

  await page.getByRole('searchbox', { name: 'Question' }).fill('What are the characteristics of trustworthy AI?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.locator('.search-state')).toHaveText(/^3 columns in /);
  expect(await shownColumns(page)).toEqual([WINDOWS, NAIVE, 'Auto-merged parents · vector']);

  // Choose: Naive first, Hybrid RRF added (last), Auto-merged parents hidden.
  await page.getByText('Columns: 3 of 13 shown').click();
  await page.getByRole('button', { name: `Move ${NAIVE} up` }).click();
  // At the top, Up is disabled: the focus stays on the row, on Down.
  await expect(page.getByRole('button', { name: `Move ${NAIVE} up` })).toBeDisabled();
  await expect(page.getByRole('button', { name: `Move ${NAIVE} down` })).toBeFocused();
  await page.getByRole('checkbox', { name: HYBRID }).check();
  await page.getByRole('checkbox', { name: 'Auto-merged parents · vector' }).uncheck();
  await expect(page.getByText('Columns: 3 of 13 shown')).toBeVisible();
  await expect(page).toHaveURL(/cols=naive%2Cwindow%2Chybrid(&|$)/);
  await expect(page.locator('.search-state')).toHaveText(/^3 columns in /);
  await expect.poll(() => shownColumns(page)).toEqual([NAIVE, WINDOWS, HYBRID]);

  // The URL keeps the choice and the order after a reload (the corpus comes back from storage).
  await page.reload();
  await expect(page).toHaveURL(/cols=naive%2Cwindow%2Chybrid(&|$)/);
  await expect(page.getByText('Columns: 3 of 13 shown')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.search-state')).toHaveText(/^3 columns in /, { timeout: 60_000 });
  expect(await shownColumns(page)).toEqual([NAIVE, WINDOWS, HYBRID]);
  const naiveBlocks = await page.getByRole('region', { name: NAIVE }).locator('article').count();
  const windowBlocks = await page.getByRole('region', { name: WINDOWS }).locator('article').count();
  expect(naiveBlocks).toBeGreaterThan(0);
  expect(windowBlocks).toBeGreaterThan(0);

  // The overlap strip is one summary line until opened (it would push the results below the fold).
  await expect(page.locator('details.overlap > summary')).toContainText(/most alike: .+ & .+ \d\.\d\d · least alike: .+ · mean of 3 pairs \d\.\d\d/);
  await page.locator('details.overlap > summary').click();
  // The overlap strip: one row and one column per shown strategy, a number in every other cell.
  const strip = page.getByRole('region', { name: /^Overlap between strategies/ });
  await expect(strip.locator('tbody tr')).toHaveCount(3);
  await expect(strip.locator('thead th')).toHaveText([/Strategy/, 'Naive chunks', 'Sentence windows', 'Hybrid RRF']);
  const cells = await strip.locator('td[data-jaccard]').allTextContents();
  expect(cells).toHaveLength(6);
  for (const c of cells) expect(c).toMatch(/^(0\.\d\d|1\.00) \(\d+ of \d+ sentences shared\)$/);
  await page.screenshot({ path: info.outputPath('overlap-strip.png'), fullPage: true });

  // Compare two: Naive chunks and Sentence windows side by side.
  await page.getByLabel('First column').selectOption({ label: NAIVE });
  await page.getByLabel('Second column').selectOption({ label: WINDOWS });
  await page.getByRole('checkbox', { name: 'Compare two' }).check();
  await expect(page).toHaveURL(/cmp=naive%2Cwindow(&|$)/);
  const paneA = page.getByRole('region', { name: `Compared: ${NAIVE}` });
  const paneB = page.getByRole('region', { name: `Compared: ${WINDOWS}` });
  await expect(paneA).toBeVisible();
  await expect(paneB).toBeVisible();
  await expect(page.locator('.columns')).toHaveCount(0);
  // The same blocks as the columns showed.
  await expect(paneA.locator('article')).toHaveCount(naiveBlocks);
  await expect(paneB.locator('article')).toHaveCount(windowBlocks);

  const counts = page.locator('table.compare-counts');
  const cell = (row: string, col: number) => counts.locator(`tr[data-row="${row}"] td`).nth(col);
  // Token counts arrive with the sentences' spans; then every sentence is marked. (Retried as a
  // whole: a search that answers again meanwhile — new vectors — changes blocks and counts together.)
  let shared = 0;
  let onlyA = 0;
  await expect(async () => {
    await expect(cell('shared', 1)).toHaveText(/^\d+$/, { timeout: 1000 });
    shared = Number(await cell('shared', 0).textContent());
    onlyA = Number(await cell('only-a', 0).textContent());
    const onlyB = Number(await cell('only-b', 0).textContent());
    expect(shared).toBeGreaterThan(0);
    expect(await marks(paneA)).toEqual({ shared, only: onlyA });
    expect(await marks(paneB)).toEqual({ shared, only: onlyB });
    await expect(paneA.locator('.column-meta')).toContainText(`${shared + onlyA} sentences: ${shared} shared with Sentence windows, ${onlyA} only here`, { timeout: 1000 });
    for (const row of ['only-a', 'only-b']) expect(await cell(row, 1).textContent()).toMatch(/^\d+$/);
    // Tokens of the shared sentences: more than zero when sentences are shared.
    expect(Number(await cell('shared', 1).textContent())).toBeGreaterThan(0);
    // The strip's Jaccard for this pair is the same shared ÷ either.
    const jaccard = shared / (shared + onlyA + onlyB);
    expect(Number(await strip.locator('tbody tr').nth(0).locator('td').nth(1).getAttribute('data-jaccard'))).toBeCloseTo(jaccard, 10);
    await expect(counts.locator('caption')).toContainText(`Jaccard ${jaccard.toFixed(2)}`, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  // Not colour alone: a screen reader hears which run is which.
  await expect(paneA.locator('.cmp-shared .cmp-vh').first()).toHaveText('[shared] ');
  if (onlyA > 0) await expect(paneA.locator('.cmp-only .cmp-vh').first()).toHaveText('[only here] ');
  await page.screenshot({ path: info.outputPath('compare-two.png'), fullPage: true });

  // Compare mode and the open chooser: nothing serious for axe, no sideways page, light and dark, laptop and phone.
  await page.getByText('Columns: 3 of 13 shown').click();
  const problems: string[] = [];
  for (const size of [
    { width: 1280, height: 800, dark: false },
    { width: 1280, height: 800, dark: true },
    { width: 390, height: 844, dark: false },
  ]) {
    const name = `${size.width}${size.dark ? '-dark' : ''}`;
    await page.emulateMedia({ colorScheme: size.dark ? 'dark' : 'light' });
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.waitForTimeout(300);
    const result = await axeOn(page).analyze();
    for (const v of result.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${name} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    if (scrollWidth > innerWidth) problems.push(`${name}: the page scrolls sideways by ${scrollWidth - innerWidth} px`);
    await page.screenshot({ path: info.outputPath(`compare-${name}.png`) });
  }
  expect(problems).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back to the columns.
  await page.getByRole('checkbox', { name: 'Compare two' }).uncheck();
  await expect(page).not.toHaveURL(/cmp=/);
  expect(await shownColumns(page)).toEqual([NAIVE, WINDOWS, HYBRID]);
});
