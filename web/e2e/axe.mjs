// axe-core in a page of the browser tests: the serious and critical WCAG 2.1 A/AA findings.
/* global window, document -- what page.evaluate runs, runs in the browser */
import { createRequire } from 'node:module';

const axeSource = createRequire(import.meta.url)('axe-core').source;

/** axe-core's serious and critical WCAG 2.1 A/AA findings in `selector` of `page` (the whole page by default), as `rule: targets`. */
export async function axeFindings(page, selector = 'body') {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (selector) => {
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
    const { violations } = await window.axe.run(document.querySelector(selector), { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return violations.filter((found) => found.impact === 'serious' || found.impact === 'critical').map((found) => `${found.id}: ${found.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }, selector);
}
