// The contract's `outputStyles/*` methods (src-shared/contract/output-styles.ts): the settings
// page's list of output styles and its switch, through the `outputStyles` service of
// plugins/output-styles on the window's workspace kernel (the one its sessions run on).
import type { OutputStylesService } from '../../plugins/output-styles/index'
import type { Handlers } from '../transport/router'
import type { HostRuntime } from './runtime'

type OutputStyleHandlerNames = 'outputStyles/list' | 'outputStyles/select'

export function outputStyleHandlers(runtime: HostRuntime): Pick<Handlers, OutputStyleHandlerNames> {
  const service = (): OutputStylesService | undefined => runtime.kernel.getService('outputStyles')
  return {
    'outputStyles/list': async () => {
      const styles = service()
      if (!styles) return { available: false, styles: [], current: 'Default', saveTo: '', problems: [] }
      return { available: true, ...styles.view() }
    },
    'outputStyles/select': async ({ name }) => {
      const styles = service()
      if (!styles) throw Object.assign(new Error('Output styles are turned off (the output-styles entry is disabled)'), { code: 'UNAVAILABLE' })
      try {
        return { available: true, ...styles.select(name) }
      } catch (error) {
        // An unknown name carries `field: 'name'`; a settings file that cannot be rewritten names the file in its message.
        throw Object.assign(error as Error, { code: 'OUTPUT_STYLE' })
      }
    }
  }
}
