// The enabled plugins' LSP servers, by the file extensions they serve. Nothing starts here: a
// server starts on the first use of a file it serves (the LSP tool, a Read, Edit or Write).
import { basename } from 'node:path'
import type { InstalledPlugin, LspServerStatus } from '@seam/sdk'
import { LanguageServer, type ServerHost } from './server'

export class LspManager {
  private servers: LanguageServer[] = []
  /** An extension served by two servers goes to the first; the second is named in `warnings`. */
  private byExtension = new Map<string, LanguageServer>()
  warnings: string[] = []

  constructor(private readonly host: ServerHost) {}

  get configured(): boolean {
    return this.servers.length > 0
  }

  extensions(): string[] {
    return [...this.byExtension.keys()].sort()
  }

  /**
   * Takes the plugins' servers as they are now: a server whose plugin and definition did not change
   * keeps running; the others stop (and the new ones wait for their first use).
   */
  async replace(plugins: readonly InstalledPlugin[]): Promise<void> {
    const next: LanguageServer[] = []
    const kept = new Set<LanguageServer>()
    for (const plugin of plugins) {
      for (const config of plugin.lspServers ?? []) {
        const same = this.servers.find((s) => s.plugin === plugin.name && JSON.stringify(s.config) === JSON.stringify(config))
        if (same !== undefined) kept.add(same)
        next.push(same ?? new LanguageServer(plugin.name, config, this.host))
      }
    }
    const gone = this.servers.filter((server) => !kept.has(server))
    this.use(next)
    await Promise.all(gone.map((server) => server.stop()))
  }

  private use(servers: LanguageServer[]): void {
    this.servers = servers
    this.byExtension = new Map()
    this.warnings = []
    for (const server of servers) {
      for (const extension of Object.keys(server.config.extensionToLanguage)) {
        const holder = this.byExtension.get(extension)
        if (holder === undefined) this.byExtension.set(extension, server)
        else this.warnings.push(`${server.label} also serves ${extension} files; ${holder.label} keeps them`)
      }
    }
    this.host.changed()
  }

  /** The server for `file`'s extension, if any plugin serves it. */
  serverFor(file: string): LanguageServer | undefined {
    const name = basename(file)
    const dot = name.lastIndexOf('.')
    return dot <= 0 ? undefined : this.byExtension.get(name.slice(dot))
  }

  status(): LspServerStatus[] {
    return this.servers.map((server) => server.status())
  }

  /** Stops every started server; they start again on their next use. */
  async stopAll(): Promise<void> {
    const started = this.servers.filter((server) => server.state !== 'idle' || server.pid !== undefined)
    this.use(this.servers.map((server) => (started.includes(server) ? new LanguageServer(server.plugin, server.config, this.host) : server)))
    await Promise.all(started.map((server) => server.stop()))
  }
}
