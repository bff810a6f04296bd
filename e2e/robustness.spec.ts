import { expect, test } from '@playwright/test';

/** Bad input gets its own message and loses nothing else; document text is never run as HTML. */

const PAYLOAD = `# Solar facts

The Sun is a star at the centre of the Solar System. It is a nearly perfect ball of hot plasma.
The Sun's core fuses hydrogen into helium. Its light reaches Earth in about eight minutes.

## Planets

Mercury is the closest planet to the Sun. <img src=x onerror="window.__pwned = true"> <script>window.__pwned = true</script>
[click](javascript:window.__pwned=true) Earth is the only planet known to host life.`;

test('pasted text with markup payloads is indexed and shown as text, never executed', async ({ page }) => {
  await page.goto('/?em=none');
  await page.locator('details.paste summary').click();
  await page.getByLabel('Paste text').fill(PAYLOAD);
  await page.getByRole('button', { name: 'Add pasted text' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc')).toHaveCount(1);
  await page.getByLabel('Question', { exact: true }).fill('How many minutes does its light take to reach Earth?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const hits = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(hits.locator('mark').first()).toContainText('eight minutes');
  // Without a model, BM25 results are shown, labelled with the reason.
  await expect(hits).toContainText('no embedding model loaded: BM25 results only');
  await page.getByLabel('Question', { exact: true }).fill('planet closest to the Sun');
  await page.getByRole('button', { name: 'Ask' }).click();
  // Markdown's raw HTML is reduced to its text: the script's body is inert text, the tags are gone.
  await expect(hits).toContainText('window.__pwned = true');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  expect(await page.locator('.block script, .block img').count()).toBe(0);
});

test('a bad file gets its own message and the good one is still indexed', async ({ page }) => {
  await page.goto('/?em=none');
  await page.locator('input[type=file]').setInputFiles([
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.from('') },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 this is not a real pdf') },
    { name: 'good.md', mimeType: 'text/markdown', buffer: Buffer.from('# Tea\n\nGreen tea is made from unoxidised leaves. Black tea is fully oxidised.') },
  ]);
  const problems = page.getByRole('alert');
  await expect(problems).toContainText('empty.txt: the file is empty');
  await expect(problems).toContainText('broken.pdf: not a readable PDF');
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(1);
  await page.getByLabel('Question', { exact: true }).fill('How is black tea made?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence hits/ }).locator('mark').first()).toHaveText(/Black tea is fully oxidised/);
});

test('nonsense in the URL is clamped or ignored with a notice', async ({ page }) => {
  await page.goto('/?em=none&k=-3&wb=NaN&zz=1');
  const notices = page.getByRole('list', { name: 'URL notices' });
  await expect(notices).toContainText('k=-3 clamped to 1');
  await expect(notices).toContainText('ignored wb=NaN: not a number');
  await expect(notices).toContainText('ignored unknown parameter zz');
});

test('when the chosen model cannot be downloaded (offline), BM25 results are shown with the reason', async ({ page }) => {
  // The default model comes from the Hugging Face hub, which this machine cannot reach.
  await page.goto('/');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByRole('status').first()).toContainText('BM25 results are shown meanwhile: could not download Xenova/all-MiniLM-L6-v2', { timeout: 60_000 });
  await page.locator('details.paste summary').click();
  await page.getByLabel('Paste text').fill('Green tea is made from unoxidised leaves. Black tea is fully oxidised.');
  await page.getByRole('button', { name: 'Add pasted text' }).click();
  await page.getByLabel('Question', { exact: true }).fill('black tea oxidised');
  await page.getByRole('button', { name: 'Ask' }).click();
  const hits = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(hits.locator('mark').first()).toHaveText(/Black tea is fully oxidised/);
  await expect(hits).toContainText('BM25 results only');
});
