import { expect, test } from '@playwright/test';

/**
 * A long answer (top-k 100 sentence hits, BM25 on the sample corpus): a column draws
 * in full the blocks the window shows and light blocks below them, whose text is in the page
 * (find-in-page, screen readers) without highlights or score; a light block turns full when it
 * is scrolled to, and a focused one keeps the focus when it does. During a slider drag the
 * rests of long texts wait for the drag's last answer, then join it.
 */
test('a long column draws light blocks out of sight, and they turn full when reached', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?em=none&k=100&wb=10&wa=10&cols=sentence,window');
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  await page.getByRole('searchbox', { name: 'Question' }).fill('What are the characteristics of trustworthy AI?');
  await page.getByRole('button', { name: 'Ask' }).click();

  const blocks = page.getByRole('region', { name: /^Sentence hits/ }).locator('article.block');
  await expect(blocks).toHaveCount(100, { timeout: 60_000 });
  // The first block, on screen: full (its score and Mark answer).
  await expect(blocks.first().locator('.block-meta')).toBeVisible();
  await expect(blocks.first().getByRole('button', { name: 'Mark answer in block 1' })).toBeVisible();
  // The last: light, its whole text in the page, no score line.
  const last = blocks.last();
  await expect(last).toHaveAttribute('data-lite', '');
  await expect(last.locator('.block-meta')).toHaveCount(0);
  const lightText = (await last.locator('.block-text').textContent()) ?? '';
  expect(lightText.trim().length).toBeGreaterThan(0);
  await expect(last).toHaveAttribute('aria-label', /^Block 100 from .+: open in the document view$/);

  // Scrolled to, it turns full: the same text, now with its hit marked.
  await last.scrollIntoViewIfNeeded();
  await expect(last).not.toHaveAttribute('data-lite', '');
  await expect(last.locator('.block-meta')).toBeVisible();
  await expect(last.locator('.block-text mark')).not.toHaveCount(0);
  await expect(last.locator('.block-text')).toHaveText(lightText);

  // Focused (as Tab or a screen reader's cursor does, which scrolls it into view): it turns full and keeps the focus.
  const fiftieth = blocks.nth(49);
  await expect(fiftieth).toHaveAttribute('data-lite', '');
  await fiftieth.focus();
  await expect(fiftieth).not.toHaveAttribute('data-lite', '');
  await expect(fiftieth.getByRole('button', { name: 'Mark answer in block 50' })).toBeVisible();
  await expect(fiftieth).toBeFocused();

  // A drag over "Window before", several steps a frame as a pointer gives them: the drag's searches answer while
  // the next is on its way, and their blocks' rests (past the head a full block first draws) wait for the last one.
  await page.evaluate(async () => {
    const el = document.querySelector<HTMLInputElement>('input[type=range][aria-label="Window before"]')!;
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    for (let i = 0; i < 40; i++) {
      set.call(el, String(i % 11));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(r));
    }
    set.call(el, '10');
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await expect(page).toHaveURL(/wb=10/);
  await expect(page.getByRole('group', { name: 'Strategy columns' })).toHaveAttribute('aria-busy', 'false');
  // At rest no block is busy: each full block holds its whole text (21 sentences around the first hit: longer than a head).
  await expect(page.locator('article[aria-busy="true"]')).toHaveCount(0);
  const window = page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first();
  await expect(window).not.toHaveAttribute('data-lite', '');
  expect(((await window.locator('.block-text').textContent()) ?? '').length).toBeGreaterThan(2000);
});
