// The contract's `themes/list` (src-shared/contract/themes.ts): the settings page's and the
// window's list of Claude Code themes, through the `themes` service of plugins/themes on the
// window's workspace kernel.
import type { ThemesService } from '../../plugins/themes/index'
import type { Handlers } from '../transport/router'
import type { HostRuntime } from './runtime'

export function themeHandlers(runtime: HostRuntime): Pick<Handlers, 'themes/list'> {
  return {
    'themes/list': async () => {
      const themes: ThemesService | undefined = runtime.kernel.getService('themes')
      if (!themes) return { available: false, themes: [], problems: [] }
      return { available: true, ...themes.view() }
    }
  }
}
