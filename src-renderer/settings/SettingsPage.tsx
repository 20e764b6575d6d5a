// Settings: provider, workspace and its trust, approvals, limits, MCP servers, grants, the plugin tree, and
// the pages client plugins contribute.
import type { ReactNode } from 'react'
import { PluginSettingsPages } from '../plugins/PluginSettingsPages'
import { ProviderForm } from '../setup/ProviderForm'
import { WorkspaceForm } from '../setup/WorkspaceForm'
import { ApprovalModeForm } from './ApprovalModeForm'
import { GrantsList } from './GrantsList'
import { LimitsForm } from './LimitsForm'
import { McpServers } from './McpServers'
import { PluginTree } from './PluginTree'
import { WorkspaceTrust } from './WorkspaceTrust'

export function SettingsPage() {
  return (
    <div className="page-scroll settings-page">
      <h1>Settings</h1>
      <Section title="Model provider"><ProviderForm /></Section>
      <Section title="Workspace">
        <WorkspaceForm />
        <WorkspaceTrust />
      </Section>
      <Section title="Approvals"><ApprovalModeForm /></Section>
      <Section title="Limits"><LimitsForm /></Section>
      <Section title="MCP servers"><McpServers /></Section>
      <Section title="This session's grants"><GrantsList /></Section>
      <Section title="Plugin tree"><PluginTree /></Section>
      <PluginSettingsPages />
    </div>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="settings-section">
      <h2>{title}</h2>
      {children}
    </section>
  )
}
