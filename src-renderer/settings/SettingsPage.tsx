// Settings: provider, models and prices, workspace and its trust, approvals, MCP servers, grants, the
// plugin tree, the pages client plugins contribute, and, collapsed at the end, the advanced limits.
import type { ReactNode } from 'react'
import { useAppStore } from '../app/app-store'
import { PluginSettingsPages } from '../plugins/PluginSettingsPages'
import { ProviderForm } from '../setup/ProviderForm'
import { WorkspaceForm } from '../setup/WorkspaceForm'
import { ApprovalModeForm } from './ApprovalModeForm'
import { GrantsList } from './GrantsList'
import { LimitsForm } from './LimitsForm'
import { McpServers } from './McpServers'
import { SkillsList } from './SkillsList'
import { ModelTableForm } from './ModelTableForm'
import { PermissionRules } from './PermissionRules'
import { PluginTree } from './PluginTree'
import { WorkspaceTrust } from './WorkspaceTrust'
import { NotificationsForm } from '../notify/NotificationsForm'

export function SettingsPage() {
  // The rules and mode in force change with the approval choice and the workspace's trust.
  const approvalMode = useAppStore((state) => state.status?.approvalMode)
  const trusted = useAppStore((state) => state.status?.workspaceTrusted)
  return (
    <div className="page-scroll settings-page">
      <h1>Settings</h1>
      <Section title="Model provider"><ProviderForm /></Section>
      <Section title="Models: context windows, prices and compaction"><ModelTableForm /></Section>
      <Section title="Workspace">
        <WorkspaceForm />
        <WorkspaceTrust />
      </Section>
      <Section title="Approvals">
        <ApprovalModeForm />
        <PermissionRules deps={[approvalMode, trusted]} />
      </Section>
      <Section title="Notifications"><NotificationsForm /></Section>
      <Section title="MCP servers"><McpServers /></Section>
      <Section title="Skills"><SkillsList /></Section>
      <Section title="This session's grants"><GrantsList /></Section>
      <Section title="Plugin tree"><PluginTree /></Section>
      <PluginSettingsPages />
      <section className="settings-section">
        <details className="settings-advanced">
          <summary><h2 className="inline-heading">Advanced</h2></summary>
          <p className="muted small">Limits of the agent loop and the hook runner. The defaults suit most work.</p>
          <LimitsForm />
        </details>
      </section>
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
