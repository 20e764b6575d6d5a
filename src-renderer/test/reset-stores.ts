// Puts every renderer store back to its initial state between tests.
import { appActions } from '../app/app-store'
import { layoutActions } from '../app/layout-store'
import { approvalActions } from '../approval/approval-store'
import { providerHealthActions } from '../app/provider-health'
import { useComposerStore } from '../composer/composer-store'
import { useClientPluginsStore } from '../plugins/client-runtime'
import { pluginsActions } from '../plugins/plugins-store'
import { claudePluginsActions } from '../plugins/manager/claude-plugins-store'
import { slotsActions } from '../plugins/slots-store'
import { sessionsActions } from '../sessions/sessions-store'
import { statusLineActions } from '../subagents/status-line-store'
import { statusColumnsActions } from '../subagents/status-columns'
import { themeActions } from '../app/theme'

export function resetStores(): void {
  appActions.reset()
  approvalActions.reset()
  pluginsActions.reset()
  claudePluginsActions.reset()
  slotsActions.reset()
  sessionsActions.reset()
  statusLineActions.reset()
  statusColumnsActions.reset()
  useClientPluginsStore.setState({ plugins: {} })
  useComposerStore.setState({ draft: '', focusRequest: 0 })
  providerHealthActions.reset()
  globalThis.localStorage?.clear()
  layoutActions.reload()
  themeActions.reset()
}
