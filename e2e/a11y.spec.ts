import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { axeOn } from './axe';

/**
 * Every view (explore with results, the document view, the generator with an answer, the
 * export panel, the map, evaluate with results) at a laptop, a wide and a phone size, and at
 * the laptop size in dark mode: axe-core (WCAG 2 A/AA and best practices; which rules at which
 * size: see scan) must find nothing serious or critical, the page must not scroll sideways (only the columns strip may), and a
 * screenshot of each (the full page at 1280) is kept under test-results/a11y/<size>-<view>.png.
 */

const SIZES = [
  { name: '1280', width: 1280, height: 800, dark: false },
  { name: '1920', width: 1920, height: 1080, dark: false },
  { name: '390', width: 390, height: 844, dark: false },
  { name: '1280-dark', width: 1280, height: 800, dark: true },
] as const;

const OUT = resolve(import.meta.dirname, '../test-results/a11y');
const QUESTION = 'What are the characteristics of trustworthy AI?';

interface Finding {
  view: string;
  size: string;
  rule: string;
  impact: string;
  elements: string[];
}

/** A small SQuAD-format set made at test time from the shared XQuAD data (not shipped). */
function smallSquad(): Buffer {
  const shared = process.env.RAG_LAB_SHARED_DATA ?? resolve(import.meta.dirname, '../../shared/data');
  const xquad = JSON.parse(readFileSync(resolve(shared, 'xquad/xquad.en.json'), 'utf8')) as { data: unknown[] };
  return Buffer.from(JSON.stringify({ version: 'e2e', data: xquad.data.slice(0, 2) }));
}

/** One of the three views, by its tab. */
function tab(page: Page, name: string) {
  return page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name });
}

/**
 * axe-core at one size, on the page or only on the `only` panels (CSS selectors). The DOM is
 * the same at every size; the width changes layout and the scheme changes colours. So 1280 runs
 * every rule, 390 every rule but contrast (the narrow layout hides and wraps things), 1280-dark
 * contrast alone, and 1920 no scan (overflow and the screenshot only): a full scan of twelve
 * full columns costs seconds, and the same scan again finds the same.
 */
async function scan(page: Page, view: string, size: (typeof SIZES)[number], findings: Finding[], only: string[]): Promise<void> {
  if (size.name === '1920') return;
  const axe = axeOn(page, size.dark ? { rules: 'contrast' } : { disable: size.name === '390' ? ['color-contrast'] : [] });
  for (const selector of only) axe.include(selector);
  const result = await axe.analyze();
  for (const v of result.violations) {
    findings.push({ view, size: size.name, rule: v.id, impact: v.impact ?? 'unknown', elements: v.nodes.map((n) => n.target.join(' ')) });
  }
}

/**
 * Checks the page at every size: what axe finds (see scan), the sideways overflow, and a
 * screenshot. `only` limits the scan to a panel where the rest of the page was scanned already.
 */
async function check(page: Page, info: TestInfo, view: string, findings: Finding[], overflow: string[], focus?: () => Promise<void>, only: string[] = []): Promise<void> {
  for (const size of SIZES) {
    await page.emulateMedia({ colorScheme: size.dark ? 'dark' : 'light' });
    await page.setViewportSize({ width: size.width, height: size.height });
    // A column refresh (vectors arriving under load) dims the columns while it runs: scan the
    // page as it is read, not mid-search at 60 % opacity.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
    await page.waitForTimeout(300); // layout, the fade back, the map's resize observer and the charts settle
    if (focus) await focus();
    await scan(page, view, size, findings, only);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    if (scrollWidth > innerWidth) overflow.push(`${size.name} ${view}: the page scrolls sideways by ${scrollWidth - innerWidth} px`);
    const path = resolve(OUT, `${size.name}-${view}.png`);
    // The whole page at the laptop size (light and dark) for review; the view in sight at the others.
    await page.screenshot({ path, fullPage: size.width === 1280 });
    await info.attach(`${size.name}-${view}`, { path, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('every view at 1280, 1920 and 390 px and in dark mode: no serious axe violation, no sideways scrolling', async ({ browser }, info) => {
  test.setTimeout(900_000);
  mkdirSync(OUT, { recursive: true });
  // The page's CSP forbids axe's injected script otherwise.
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const findings: Finding[] = [];
  const overflow: string[] = [];

  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });

  // The views are tabs: one in the Tab order, arrows move and choose, Home and End go to the ends.
  const explore = tab(page, 'Explore a question');
  await expect(explore).toHaveAttribute('aria-selected', 'true');
  await expect(tab(page, 'Evaluate on a labelled set')).toHaveAttribute('tabindex', '-1');
  await explore.focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Evaluate on a labelled set')).toBeFocused();
  await expect(tab(page, 'Evaluate on a labelled set')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Evaluate' }).getByRole('region', { name: 'Evaluation lab' })).toBeVisible();
  await page.keyboard.press('End');
  await expect(tab(page, 'Map of the corpus')).toBeFocused();
  await expect(page.getByRole('tabpanel', { name: 'Map' }).getByRole('region', { name: 'Map of the corpus' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(explore).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await expect(explore).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Question', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(8, { timeout: 240_000 });
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const windows = page.getByRole('region', { name: /^Sentence windows/ });
  await expect(windows.locator('article.block').first()).toBeVisible({ timeout: 30_000 });
  // The whole answer is in: the strip is no longer busy ("Searching…" shows only for a search that lasts).
  await expect(page.getByRole('group', { name: 'Strategy columns' })).toHaveAttribute('aria-busy', 'false');
  await check(page, info, 'explore', findings, overflow);

  // The keyboard reaches a block; Enter opens the document view, Esc closes it and gives focus back.
  const block = windows.locator('article.block').first();
  await block.focus();
  await page.keyboard.press('Enter');
  const docview = page.getByRole('complementary', { name: 'Document view' });
  await expect(docview).toBeVisible();
  await expect(docview.locator('.range-hit').first()).toBeVisible({ timeout: 20_000 });
  // The rest of the page is as in the explore view, scanned there.
  await check(page, info, 'document', findings, overflow, undefined, ['aside.docview']);
  await page.keyboard.press('Escape');
  await expect(docview).toBeHidden();
  await expect(block).toBeFocused();

  // The generator with the in-browser TEST model and an answer.
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('In this browser').check();
  const select = gen.getByLabel('Generator model');
  await select.selectOption((await select.locator('option', { hasText: /^TEST MODEL/ }).getAttribute('value'))!);
  await gen.getByRole('button', { name: 'Load model' }).click();
  await expect(gen.getByText('Ready: rag-lab/test-generator')).toBeVisible({ timeout: 60_000 });
  const answer = page.getByRole('region', { name: 'Answer', exact: true });
  await answer.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByText(/^Done · rag-lab\/test-generator/)).toBeVisible({ timeout: 60_000 });
  // The rest of the page is as in the explore view, scanned there.
  await check(page, info, 'generator', findings, overflow, () => gen.scrollIntoViewIfNeeded(), ['section.generator', 'section.answer-panel']);

  await check(page, info, 'export', findings, overflow, () => page.getByRole('region', { name: 'Export' }).scrollIntoViewIfNeeded(), ['section.export']);

  await tab(page, 'Map of the corpus').click();
  const map = page.getByRole('region', { name: 'Map of the corpus' });
  await expect(map.getByRole('img', { name: /^Map of [\d,]+ sentences \(PCA\)/ })).toBeVisible({ timeout: 60_000 });
  await check(page, info, 'map', findings, overflow);

  // Last: a SQuAD-format set replaces the corpus.
  await tab(page, 'Evaluate on a labelled set').click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  await lab.getByLabel('Labelled set').setInputFiles({ name: 'small-squad.json', mimeType: 'application/json', buffer: smallSquad() });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(2, { timeout: 120_000 });
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(lab.getByLabel('Recommendation')).toContainText(/At 256 tokens the best is/, { timeout: 180_000 });
  await lab.getByRole('list', { name: 'Questions' }).getByRole('button').first().click();
  await expect(lab.getByLabel('Question drill-down').locator('article.eval-block').first()).toBeVisible({ timeout: 30_000 });
  await check(page, info, 'evaluate', findings, overflow);

  const serious = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  const summary = { findings, overflow, serious: serious.length, elements: serious.reduce((n, f) => n + f.elements.length, 0) };
  writeFileSync(resolve(OUT, 'summary.json'), JSON.stringify(summary, null, 1));
  await info.attach('a11y-summary.json', { body: JSON.stringify(summary, null, 1), contentType: 'application/json' });
  await context.close();
  expect(overflow).toEqual([]);
  expect(serious.map((f) => `${f.size} ${f.view} ${f.rule} (${f.impact}): ${f.elements.slice(0, 5).join(', ')}${f.elements.length > 5 ? ` … ${f.elements.length} in all` : ''}`)).toEqual([]);
});
