import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The WCAG 2 A/AA levels and axe's best practices: what every scan of the page holds it to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * axe-core on the page with the project's settings, run as one axe.run() in the page (legacy
 * mode): the default runs axe.runPartial() in each frame and axe.finishRun() in a blank page it
 * opens, which for this page of one frame took 18–23 s a scan against 6–8 s, the same violations.
 * Only violations are reported in full: axe otherwise works out a unique CSS selector and the
 * HTML of every node that passes (axe-core's API.md, "Performance").
 * `rules: 'contrast'` runs color-contrast alone; otherwise every rule of AXE_TAGS runs, with
 * `label-content-name-mismatch` (experimental in axe, so named: a control's name must contain
 * its visible text) and without those in `disable`.
 */
export function axeOn(page: Page, options: { rules?: 'all' | 'contrast'; disable?: string[] } = {}): AxeBuilder {
  const axe = new AxeBuilder({ page }).setLegacyMode(true);
  if (options.rules === 'contrast') return axe.options({ resultTypes: ['violations'] }).withRules(['color-contrast']);
  axe.options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } }).withTags(AXE_TAGS);
  if (options.disable?.length) axe.disableRules(options.disable);
  return axe;
}
