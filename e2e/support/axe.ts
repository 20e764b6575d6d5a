// axe-core on a page, for the specs that check accessibility. AxeBuilder (@axe-core/playwright)
// injects axe's whole source (1.5 MB unminified) into the page on every analyze() and, outside
// legacy mode, opens a blank page to finish each run: about 4 s per screen on a loaded 2-core
// machine, for about 0.4 s of actual checking, which is what pushed the checkpoint a11y specs past
// their timeout under load. Here the minified source (the same axe-core that @axe-core/playwright
// depends on) is injected once per document and `axe.run` is called directly, with the same rules
// (every rule axe enables by default) and only the violations sent back. The app has no frames,
// so nothing runPartial/finishRun covers is lost.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import type { AxeResults } from 'axe-core'

const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))
const AXE_SOURCE = readFileSync(join(dirname(fromAxePlaywright.resolve('axe-core')), 'axe.min.js'), 'utf8')

/** axe's violations on the page as it is now (axe injected first when this document has none yet). */
export async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
  })
}

/** The serious and critical ones, each as its rule, help text and nodes (for a readable failure). */
export function seriousOrCritical(violations: AxeResults['violations']): string[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ')}`).join('\n')}`)
}
