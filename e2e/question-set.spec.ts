import { expect, test, type Page } from '@playwright/test';
import { ORIGIN } from './origin';

/**
 * The question set made in the page: three questions asked on the sample corpus, their answers
 * marked (by keyboard alone on a block, by mouse on a block and a second one "also needed", by
 * selecting words in the document view), kept across a reload beside the sample's own 17 questions, evaluated on the marked ones
 * with the source line saying "3 marked by you"; a removed document leaves its question saying so.
 */

async function ask(page: Page, question: string) {
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const column = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(column.locator('article.block').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Marking answers' })).toContainText('Not in your question set yet');
  return column;
}

test('mark answers while exploring (one by keyboard), keep them across a reload, evaluate on them, and see a removed document named', async ({ page }, info) => {
  test.setTimeout(300_000);
  // BM25 columns (r=bm25): what they find does not depend on how far the test model has embedded.
  await page.goto(`${ORIGIN}/?em=rag-lab/test-embedder~fp32~wasm~local&r=bm25`);
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  // BM25 answers while the test model embeds; the marks do not need vectors.
  await page.getByRole('button', { name: 'Pause embedding' }).click({ timeout: 60_000 });

  // 1 · By keyboard alone: the block's Mark answer button, its sentences as check boxes, Save.
  let column = await ask(page, 'What is the population of Lisbon, the capital?');
  const block = column.locator('article.block').filter({ hasText: 'LISBON' }).first();
  const keyboardDoc = (await block.locator('.block-doc').textContent())!;
  const markButton = block.getByRole('button', { name: /^Mark answer in block \d+$/ });
  await markButton.focus();
  await page.keyboard.press('Enter');
  const sentences = block.getByRole('group', { name: /^Which sentences of block \d+ answer/ });
  await expect(sentences.getByRole('checkbox').first()).toBeVisible();
  const first = sentences.getByRole('checkbox').first();
  for (let i = 0; i < 10 && !(await first.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await page.keyboard.press('Space');
  await expect(sentences.getByRole('checkbox').first()).toBeChecked();
  for (let i = 0; i < 40 && !(await sentences.getByRole('button', { name: 'Save answer' }).evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(block.getByRole('status')).toContainText('Saved: 1 sentence of block');
  await expect(block).toContainText('holds your marked answer');
  await expect(page.getByRole('group', { name: 'Marking answers' })).toContainText('In your question set with 1 answer marked');

  // 2 · By mouse on a block: its first sentence ticked.
  column = await ask(page, 'What was the capital of Brazil before Brasilia?');
  const second = column.locator('article.block').first();
  const removedDoc = (await second.locator('.block-doc').textContent())!;
  await second.getByRole('button', { name: /^Mark answer in block \d+$/ }).click();
  await second.getByRole('checkbox').first().check();
  await second.getByRole('button', { name: 'Save answer' }).click();
  await expect(second.getByRole('status')).toContainText('Saved: 1 sentence');
  // A sentence of another document's block marked "also needed": the question needs both answers
  // (a sentence next to the first one would join it as one answer).
  const otherDocIndex = await column.locator('article.block .block-doc').evaluateAll((els, doc) => els.findIndex((el) => el.textContent !== doc), removedDoc);
  expect(otherDocIndex, 'a block of another document in the column').toBeGreaterThan(0);
  const third = column.locator('article.block').nth(otherDocIndex);
  await third.getByRole('button', { name: /^Mark answer in block \d+$/ }).click();
  await third.getByRole('checkbox').first().check();
  await third.getByRole('checkbox', { name: /^Also needed: the answer needs these sentences and the answer marked elsewhere/ }).check();
  await third.getByRole('button', { name: 'Save answer' }).click();
  await expect(third.getByRole('status')).toContainText('together with the answer marked elsewhere (all needed)');
  await expect(page.getByRole('group', { name: 'Marking answers' })).toContainText('2 answers marked');
  await expect(page.getByRole('group', { name: 'Marking answers' }).getByRole('checkbox', { name: 'All 2 answers needed (not any one)' })).toBeChecked();

  // 3 · By selecting words in the document view.
  column = await ask(page, 'What are the characteristics of trustworthy AI?');
  await column.locator('article.block .block-text').first().click();
  const view = page.getByRole('complementary', { name: 'Document view' });
  const hit = view.locator('.docview-text mark.range-hit').first();
  await expect(hit).toBeVisible({ timeout: 30_000 });
  const selected = await hit.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString().trim();
  });
  await view.getByRole('button', { name: 'Mark selected text as the answer' }).click();
  await expect(view.getByRole('status')).toContainText(`Saved: “${selected.slice(0, 40)}`);
  await page.screenshot({ path: info.outputPath('marked.png'), fullPage: true });

  // Kept with the corpus across a reload.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  const list = lab.getByRole('list', { name: 'Questions of the set' });
  await expect(list.getByRole('listitem')).toHaveCount(20, { timeout: 30_000 });
  await expect(list).toContainText('What is the population of Lisbon, the capital?');
  await expect(list).toContainText('What was the capital of Brazil before Brasilia?');
  await expect(list.getByRole('listitem').filter({ hasText: 'capital of Brazil before Brasilia' })).toContainText('needs all 2 answers');
  await expect(list).toContainText('What are the characteristics of trustworthy AI?');
  await expect(lab.getByLabel('Question set sources')).toContainText("20 questions: 3 marked by you · 17 imported from the sample corpus's question set (answers marked by hand)");

  // Evaluate on the marked ones (BM25 only: the vectors are not all made).
  await expect(lab.getByRole('radio', { name: /The question set \(20 questions\)/ })).toBeChecked();
  await lab.getByLabel('Evaluate', { exact: true }).selectOption('marked');
  for (const r of ['vector', 'hybrid RRF']) await lab.getByRole('checkbox', { name: r, exact: true }).uncheck();
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  const recommendation = lab.getByLabel('Recommendation');
  await expect(recommendation).toContainText(/At 256 tokens the best is/, { timeout: 180_000 });
  await expect(recommendation).toContainText('Questions: 3 marked by you.');
  await expect(lab.getByRole('table', { name: 'Best point per strategy and budget' })).toContainText('Questions: 3 marked by you.');
  await page.screenshot({ path: info.outputPath('evaluated.png'), fullPage: true });

  // A removed document: its question stays and says so (the keyboard-marked one is untouched unless it shares the document).
  await page.getByRole('button', { name: `remove ${removedDoc}` }).click();
  const gone = list.getByRole('listitem').filter({ hasText: 'What was the capital of Brazil before Brasilia?' });
  await expect(gone).toContainText('its document was removed', { timeout: 30_000 });
  await expect(list.getByRole('listitem')).toHaveCount(20);
  if (keyboardDoc !== removedDoc) await expect(list.getByRole('listitem').filter({ hasText: 'population of Lisbon' })).not.toContainText('its document was removed');

  // Re-mark jumps to the explore view with the question asked; "Not answerable" keeps a question without answers.
  const lisbon = list.getByRole('listitem').filter({ hasText: 'population of Lisbon' });
  await lisbon.locator('summary').click();
  await lisbon.getByRole('button', { name: 'Re-mark' }).click();
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue('What is the population of Lisbon, the capital?');
  await expect(page.getByRole('group', { name: 'Marking answers' })).toContainText('In your question set with 1 answer marked');
  await ask(page, 'How many goals did Portugal score at the 1966 football World Cup?');
  await page.getByRole('button', { name: 'Not answerable from these documents' }).click();
  await expect(page.getByRole('group', { name: 'Marking answers' })).toContainText('In your question set as not answerable from these documents. 21 questions in the set');
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  await expect(list.getByRole('listitem').filter({ hasText: '1966 football' })).toContainText('not answerable');
  await expect(lab.getByText('3 unanswerable questions: kept and counted, left out of retrieval metrics')).toBeVisible();
});
