// The sections of Settings, in nav order: one entry per section ({ id, title, component }). A new
// section is one more entry here (client plugins' settings pages are appended by SettingsPage).
// Ids are what deep links name: `appActions.openSettings('permissions')`.
import type { ComponentType, ReactNode } from 'react'
import { NotificationsForm } from '../notify/NotificationsForm'
import { ProviderForm } from '../setup/ProviderForm'
import { WorkspaceForm } from '../setup/WorkspaceForm'
import { ApprovalModeForm } from './ApprovalModeForm'
import { GrantsList } from './GrantsList'
import { LimitsForm } from './LimitsForm'
import { McpServers } from './McpServers'
import { ChannelsForm } from './ChannelsForm'
import { ModelTableForm } from './ModelTableForm'
import { PermissionRules } from './PermissionRules'
import { PluginTree } from './PluginTree'
import { SkillsList } from './SkillsList'
import { OutputStyles } from './OutputStyles'
import { ThemeChoice } from './ThemeChoice'
import { AgentsList } from '../subagents/AgentsList'
import { WorkspaceTrust } from './WorkspaceTrust'
import { useAppStore } from '../app/app-store'

export interface SettingsSectionDef {
  id: string
  title: string
  component: ComponentType
}

export const SETTINGS_SECTIONS: SettingsSectionDef[] = [
  { id: 'provider', title: 'Model & provider', component: ProviderSection },
  { id: 'workspace', title: 'Workspace & trust', component: WorkspaceSection },
  { id: 'permissions', title: 'Permissions & approvals', component: PermissionsSection },
  { id: 'notifications', title: 'Notifications', component: NotificationsForm },
  { id: 'mcp', title: 'MCP servers', component: McpServers },
  { id: 'channels', title: 'Channels', component: ChannelsForm },
  { id: 'skills', title: 'Skills', component: SkillsList },
  { id: 'output-style', title: 'Output style', component: OutputStyles },
  { id: 'theme', title: 'Theme', component: ThemeChoice },
  { id: 'subagents', title: 'Subagents', component: AgentsList },
  { id: 'plugins', title: 'Plugin tree', component: PluginTree },
  { id: 'advanced', title: 'Advanced', component: AdvancedSection }
]

/** A titled part of a section. */
export function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="settings-part" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  )
}

function ProviderSection() {
  return (
    <>
      <Part title="Model provider"><ProviderForm /></Part>
      <Part title="Models: context windows, prices and compaction"><ModelTableForm /></Part>
    </>
  )
}

function WorkspaceSection() {
  return (
    <>
      <Part title="Workspace folder"><WorkspaceForm /></Part>
      <Part title="Trust"><WorkspaceTrust /></Part>
    </>
  )
}

function PermissionsSection() {
  // The rules and mode in force change with the approval choice and the workspace's trust.
  const approvalMode = useAppStore((state) => state.status?.approvalMode)
  const trusted = useAppStore((state) => state.status?.workspaceTrusted)
  return (
    <>
      <Part title="Approval mode"><ApprovalModeForm /></Part>
      <Part title="Rules in force"><PermissionRules deps={[approvalMode, trusted]} /></Part>
      <Part title="This session's grants"><GrantsList /></Part>
    </>
  )
}

function AdvancedSection() {
  return (
    <>
      <p className="muted small">Limits of the agent loop and the hook runner. The defaults suit most work.</p>
      <LimitsForm />
    </>
  )
}
