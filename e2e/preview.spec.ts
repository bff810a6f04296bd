import { expect, test } from '@playwright/test';

const TEXT = `# Solar facts

The Sun is a star at the centre of the Solar System. It is a nearly perfect ball of hot plasma.
The Sun's core fuses hydrogen into helium. Its light reaches Earth in about eight minutes.

## Planets

Mercury is the closest planet to the Sun. Venus is the hottest planet. Earth is the only planet known to host life.
<img src=x onerror="window.__pwned = true"> <script>window.__pwned = true</script>`;

test('pasted text is split and every strategy shows its context side by side', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Paste text').fill(TEXT);
  await page.getByRole('button', { name: 'Add pasted text' }).click();
  await expect(page.locator('.files li.ok')).toHaveCount(1);
  await page.getByLabel('Question').fill('How many minutes does its light take to reach Earth?');
  await page.getByRole('button', { name: 'Search' }).click();
  for (const name of ['Naive chunks (baseline)', 'Sentence hits', 'Sentence windows', 'Auto-merged parents']) {
    await expect(page.getByRole('region', { name })).toBeVisible();
  }
  const hit = page.getByRole('region', { name: 'Sentence hits' }).locator('mark').first();
  await expect(hit).toHaveText(/eight minutes/);
  // The window around the hit holds its neighbours, with the hit highlighted inside.
  const windowBlock = page.getByRole('region', { name: 'Sentence windows' }).locator('.block').first();
  await expect(windowBlock).toContainText('hydrogen into helium');
  await expect(windowBlock.locator('mark', { hasText: 'eight minutes' })).toHaveCount(1);
  // Markup inside a document is shown as text, never run.
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
});

test('a bad file gets its own message and the good one is still indexed', async ({ page }) => {
  await page.goto('/');
  await page.locator('input[type=file]').setInputFiles([
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.from('') },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 this is not a real pdf') },
    { name: 'good.md', mimeType: 'text/markdown', buffer: Buffer.from('# Tea\n\nGreen tea is made from unoxidised leaves. Black tea is fully oxidised.') },
  ]);
  await expect(page.locator('.files li.error')).toHaveCount(2);
  await expect(page.locator('.files li.error').first()).toContainText('empty.txt: the file is empty');
  await expect(page.locator('.files li.error').nth(1)).toContainText('broken.pdf');
  await expect(page.locator('.files li.ok')).toContainText('Tea');
  await page.getByLabel('Question').fill('How is black tea made?');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('region', { name: 'Sentence hits' }).locator('mark').first()).toHaveText(/Black tea is fully oxidised/);
});
