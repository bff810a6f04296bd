import { expect, test } from '@playwright/test';

/**
 * A document whose language the detector is unsure of says so in its list entry, and the user
 * changes it there: the worker indexes that document again in the chosen language, and the
 * choice is kept across a reload.
 */
test('an unsure language is said in the list, changed there, and kept', async ({ page }) => {
  await page.goto('/?em=none');
  await page.locator('details.paste summary').click();
  // Headings only: French by trigrams by a hair, English by prevalence — unsure either way.
  await page.getByLabel('Paste text').fill('Introduction\n\nInstallation\n\nConfiguration\n\nUsage\n\nLicence');
  await page.getByRole('button', { name: 'Add pasted text' }).click();
  const item = page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)');
  await expect(item.locator('.doc-meta')).toContainText('· en (unsure) ·', { timeout: 60_000 });
  await item.getByText('Language: English — unsure').click();
  await expect(item.getByText(/it may also be French/)).toBeVisible();

  await item.getByLabel(/^Language of /).selectOption('fr');
  await item.getByRole('button', { name: 'Index in this language' }).click();
  await expect(item.locator('.doc-meta')).toContainText('· fr ·');
  await expect(item.locator('.doc-meta')).not.toContainText('unsure');
  await expect(item.getByText('Language: French (your choice)')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending) .doc-meta')).toContainText('· fr ·', { timeout: 60_000 });
});
