// Contains a client plugin's render error to its slot: the slot shows the error text, the rest
// of the app keeps running. (Error boundaries can only be class components in React.)
import { Component, type ReactNode } from 'react'
import { errorText } from '../app/errors'

interface Props {
  plugin: string
  slot: string
  children: ReactNode
}

interface State {
  error: unknown
  failed: boolean
}

export class SlotBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false }

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true }
  }

  override componentDidCatch(error: unknown): void {
    console.error(`[seam] client plugin ${this.props.plugin} threw while rendering ${this.props.slot}`, error)
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children
    return (
      <div className="slot-error" role="alert">
        <strong>{this.props.plugin}</strong> failed to render {this.props.slot}: {errorText(this.state.error)}
      </div>
    )
  }
}

/** Calls a plugin's render function during React's render, so its errors reach the boundary. */
export function PluginRender({ render }: { render: () => ReactNode }) {
  return <>{render()}</>
}
