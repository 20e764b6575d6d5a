// The renderer's entry: share React and the client SDK with client bundles, connect to the host
// over whichever transport this page has, and render the app.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { errorText } from './app/errors'
import { themeActions } from './app/theme'
import { registerSharedModules } from './plugins/shared-modules'
import { connectHost } from './transport'
import './styles/tokens.css'
import './styles/base.css'
import './styles/layout.css'
import './styles/transcript.css'
import './styles/dialogs.css'
import './styles/subagents.css'
import './styles/board.css'

registerSharedModules()
// The colours chosen last, before anything paints (the host's list confirms them once connected).
themeActions.restore()

const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'))
const root = createRoot(container)

connectHost().then(
  (host) => {
    window.addEventListener('pagehide', () => host.close())
    root.render(
      <StrictMode>
        <App host={host} connection={host.connection} followUrl />
      </StrictMode>
    )
  },
  (error: unknown) => {
    root.render(
      <main className="fatal" role="alert">
        <h1>Seam could not reach its host</h1>
        <p>{errorText(error)}</p>
        <button type="button" onClick={() => window.location.reload()}>Retry</button>
      </main>
    )
  }
)
