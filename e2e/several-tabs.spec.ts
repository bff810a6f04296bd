import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ORIGIN } from './origin';

/**
 * Several tabs of one browser profile share the lab's storage (issue 40). One tab owns the lab
 * (a Web Lock): it writes and embeds; another opens read-only, follows what the owner stores,
 * and takes the lab over with "Use it here". Every page here is in one browser context, so they
 * share IndexedDB, Web Locks and BroadcastChannel as tabs do.
 */
const APP = '/?em=rag-lab/test-embedder~fp32~wasm~local';

const docList = (page: Page) => page.getByRole('list', { name: 'Indexed documents' });
const listed = (page: Page) => docList(page).locator('li.doc:not(.pending)');
const banner = (page: Page) => page.getByRole('banner');
const otherTab = (page: Page) => banner(page).getByRole('status').filter({ hasText: 'The lab is open in another tab' });

/** A Markdown document of `n` short sentences, its words varied by `seed`. */
function md(name: string, n: number, seed: number) {
  const lines = [`# ${name}`, ''];
  for (let i = 0; i < n; i++) lines.push(`Sentence ${i} of ${name} speaks of harbour ${seed * 31 + i} and lantern ${(i * seed) % 7}.`);
  return { name, mimeType: 'text/markdown', buffer: Buffer.from(lines.join('\n')) };
}

async function open(context: BrowserContext, url = APP): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.goto(url);
  if (url === APP) await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  return page;
}

/** Takes the lab in `page`: its notice goes, and `from` says the lab is open elsewhere. */
async function useItHere(page: Page, from: Page) {
  await otherTab(page).getByRole('button', { name: 'Use it here' }).click();
  await expect(otherTab(page)).toHaveCount(0, { timeout: 30_000 });
  await expect(otherTab(from)).toBeVisible({ timeout: 30_000 });
}

test('A embeds the sample corpus, B adds a file, A removes Brazil: both stay done, and a third tab shows both', async ({ context }) => {
  test.setTimeout(300_000);
  const a = await open(context);
  await a.getByRole('button', { name: 'Load sample corpus' }).click();
  await expect(docList(a).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 180_000 });
  await expect(a.getByRole('button', { name: 'Pause embedding' })).toHaveCount(0, { timeout: 180_000 });
  await expect(otherTab(a)).toHaveCount(0);

  // B opens read-only, with the same eight documents, and says why it changes nothing (without
  // a model: B's file is embedded by whichever tab owns the lab with one, here A once it takes over).
  const b = await open(context, '/?em=none');
  await expect(otherTab(b)).toBeVisible();
  await expect(listed(b)).toHaveCount(8, { timeout: 60_000 });
  await useItHere(b, a);
  await b.locator('input[type=file]').setInputFiles([md('from-b.md', 20, 2)]);
  await expect(listed(b)).toHaveCount(9, { timeout: 60_000 });
  // A follows what B stores: B's file appears there without a reload.
  await expect(docList(a).getByRole('button', { name: 'remove from-b.md' })).toBeVisible({ timeout: 30_000 });

  await useItHere(a, b);
  await docList(a).getByRole('button', { name: 'remove Brazil' }).click();
  await expect(listed(a)).toHaveCount(8);
  await expect(docList(a).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 60_000 });
  await expect(docList(b).getByRole('button', { name: 'remove Brazil' })).toHaveCount(0, { timeout: 30_000 });
  await expect(listed(b)).toHaveCount(8);

  const c = await open(context, '/?em=none');
  await expect(otherTab(c)).toBeVisible();
  await expect(listed(c)).toHaveCount(8, { timeout: 60_000 });
  await expect(docList(c).getByRole('button', { name: 'remove from-b.md' })).toHaveCount(1);
  await expect(docList(c).getByRole('button', { name: 'remove Brazil' })).toHaveCount(0);
  // The read-only tab refuses a change, and says why.
  await c.getByRole('button', { name: 'Clear everything' }).click();
  await expect(c.getByRole('region', { name: 'Documents' })).toContainText('the lab is open in another tab, and only that tab changes it');
  await expect(listed(c)).toHaveCount(8);
});

test('Clear in the tab that owns the lab empties the other tab too', async ({ context }) => {
  test.setTimeout(120_000);
  const a = await open(context, '/?em=none');
  await a.locator('input[type=file]').setInputFiles([md('one.md', 10, 1), md('two.md', 10, 2)]);
  await expect(docList(a).getByText(/^BM25 only/)).toHaveCount(2, { timeout: 60_000 });
  const b = await open(context, '/?em=none');
  await expect(otherTab(b)).toBeVisible();
  await expect(listed(b)).toHaveCount(2, { timeout: 60_000 });
  await a.getByRole('button', { name: 'Clear everything' }).click();
  await expect(a.getByRole('region', { name: 'Documents' }).getByText('No documents yet.')).toBeVisible();
  await expect(b.getByRole('region', { name: 'Documents' }).getByText('No documents yet.')).toBeVisible({ timeout: 30_000 });
});

/** "Embedded since: N units; semantic chunks cut for M documents." of a tab's banner. */
async function made(page: Page): Promise<{ units: number; cut: number }> {
  const text = (await banner(page).textContent()) ?? '';
  const m = /Embedded since: ([\d,]+) units?; semantic chunks cut for (\d+) documents?\./.exec(text);
  expect(m, text).not.toBeNull();
  return { units: Number(m![1]!.replace(/,/g, '')), cut: Number(m![2]) };
}

test('two tabs open while a file is embedded: each unit is embedded once, across a takeover in the middle', async ({ context }) => {
  test.setTimeout(300_000);
  // The file is stored first without a model, so both tabs below start from storage and count what they embed.
  const setup = await open(context, '/?em=none');
  await setup.locator('input[type=file]').setInputFiles([md('long.md', 2000, 5)]);
  await expect(docList(setup).getByText(/^BM25 only/)).toHaveCount(1, { timeout: 60_000 });
  await setup.close();

  const a = await open(context);
  await expect(banner(a)).toContainText('Restored: 0 vectors', { timeout: 60_000 });
  const total = Number(/left to make: ([\d,]+) units/.exec((await banner(a).textContent()) ?? '')![1]!.replace(/,/g, ''));
  expect(total).toBeGreaterThan(2000);
  // A is paused once it has made some vectors, so that B, however slow to open, takes over while A still has most of the file to embed.
  await expect(docList(a).getByText(/\([1-9][\d,]*\/[\d,]+ units\)/)).toBeVisible({ timeout: 60_000 });
  await a.getByRole('button', { name: 'Pause embedding' }).click();
  await expect(a.getByText('Embedding is paused')).toBeVisible();
  const b = await open(context);
  await expect(otherTab(b)).toBeVisible();
  await a.getByRole('button', { name: 'Resume embedding' }).click();
  await expect(a.getByRole('button', { name: 'Pause embedding' })).toBeVisible();
  // B embeds nothing while A embeds (it shows what A stores).
  expect((await made(b)).units).toBe(0);
  await useItHere(b, a);
  await expect(docList(b).getByText('ready', { exact: true })).toHaveCount(1, { timeout: 180_000 });
  await expect(b.getByRole('button', { name: 'Pause embedding' })).toHaveCount(0, { timeout: 180_000 });
  await expect(docList(a).getByText('ready', { exact: true })).toHaveCount(1, { timeout: 30_000 });
  const [byA, byB] = [await made(a), await made(b)];
  // What A made before it handed over was stored and taken, not made again: every unit once.
  expect(byA.units).toBeGreaterThan(0);
  expect(byA.units + byB.units).toBe(total);
  expect(byA.cut + byB.cut).toBe(1);
});

test('a tab that crashes while files are being indexed and embedded leaves a corpus that opens, with every document it had stored', async ({ context, browser }) => {
  test.setTimeout(240_000);
  const a = await open(context);
  const files = Array.from({ length: 12 }, (_, i) => md(`f${String(i).padStart(2, '0')}.md`, 150, i + 1));
  await a.locator('input[type=file]').setInputFiles(files);
  await expect(listed(a)).not.toHaveCount(0, { timeout: 60_000 });
  await expect.poll(() => listed(a).count(), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(3);
  // The renderer dies mid-write (Playwright's own newPage does not survive it in this context: a new tab is opened through CDP).
  const cdp = await browser.newBrowserCDPSession();
  const target = (await cdp.send('Target.getTargets')).targetInfos.find((t) => t.type === 'page' && t.url.startsWith(ORIGIN))!;
  void (await context.newCDPSession(a)).send('Page.crash').catch(() => undefined);
  await expect.poll(async () => (await cdp.send('Target.getTargets')).targetInfos.some((t) => t.type === 'worker' && t.browserContextId === target.browserContextId), { timeout: 10_000 }).toBe(false);
  const next = context.waitForEvent('page');
  await cdp.send('Target.createTarget', { url: `${ORIGIN}${APP}`, browserContextId: target.browserContextId });
  const b = await next;
  await expect(b.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await expect(otherTab(b)).toHaveCount(0);
  await expect(banner(b)).toContainText('Your corpus is kept in this browser.');
  const names = (await docList(b).getByRole('button', { name: /^remove / }).allTextContents()).map((t) => t.replace(/^remove/, '').trim());
  // The documents stored before the crash, in the order they were dropped: f00, f01, … with none missing between.
  expect(names.length).toBeGreaterThanOrEqual(3);
  expect(names).toEqual(files.slice(0, names.length).map((f) => f.name));
  await expect(docList(b).getByText('ready', { exact: true })).toHaveCount(names.length, { timeout: 120_000 });
  await b.getByLabel('Question').fill('harbour lantern');
  await b.getByRole('button', { name: 'Ask' }).click();
  await expect(b.getByRole('region', { name: /^Sentence hits/ }).locator('article.block').first()).toBeVisible({ timeout: 30_000 });
});
