// Claude Code's --channels entries, as Seam reads them from its settings and the command line.
import { describe, expect, it } from 'vitest'
import { enablingEntry, entryFor, parseEntries } from './entries'

describe('channel entries', () => {
  it('reads plugin:<name>@<marketplace>, plugin:<name> and server:<name>, and names each bad one', () => {
    const { entries, problems } = parseEntries(['plugin:telegram@claude-plugins-official', 'plugin:chat', 'server:webhook', 'telegram', 'plugin:Bad Name@x', 7])
    expect(entries).toEqual([
      { kind: 'plugin', plugin: 'telegram', marketplace: 'claude-plugins-official', text: 'plugin:telegram@claude-plugins-official' },
      { kind: 'plugin', plugin: 'chat', text: 'plugin:chat' },
      { kind: 'server', server: 'webhook', text: 'server:webhook' }
    ])
    expect(problems).toEqual([
      'channels[3]: "telegram" is not a channel: write plugin:<name>@<marketplace> or server:<name>',
      'channels[4]: "plugin:Bad Name@x" is not a channel: write plugin:<name>@<marketplace> or server:<name>',
      expect.stringMatching(/^channels\[5\]: .*expected string/)
    ])
  })

  it("a plugin entry enables the servers its channels name, or all of its servers when it names none; the marketplace must match when given", () => {
    const { entries } = parseEntries(['plugin:chat@team', 'server:webhook'])
    const chat = (server: string, marketplace = 'team') => ({ name: `plugin_chat_${server}`, plugin: { name: 'chat', marketplace, server } })
    const declared = (channels: string[] | undefined) => () => channels
    expect(enablingEntry(entries, chat('bot'), declared(['bot']))?.text).toBe('plugin:chat@team')
    expect(enablingEntry(entries, chat('db'), declared(['bot']))).toBeUndefined()
    expect(enablingEntry(entries, chat('db'), declared(undefined))?.text).toBe('plugin:chat@team')
    expect(enablingEntry(entries, chat('bot', 'other'), declared(['bot']))).toBeUndefined()
    expect(enablingEntry(entries, { name: 'webhook' }, declared(undefined))?.text).toBe('server:webhook')
    expect(enablingEntry(entries, { name: 'other' }, declared(undefined))).toBeUndefined()
    expect(enablingEntry(parseEntries(['plugin:chat']).entries, chat('bot', 'anywhere'), declared([]))?.text).toBe('plugin:chat')
  })

  it('suggests the entry that would enable a server', () => {
    expect(entryFor({ name: 'plugin_chat_bot', plugin: { name: 'chat', marketplace: 'team', server: 'bot' } })).toBe('plugin:chat@team')
    expect(entryFor({ name: 'plugin_chat_bot', plugin: { name: 'chat', server: 'bot' } })).toBe('plugin:chat')
    expect(entryFor({ name: 'webhook' })).toBe('server:webhook')
  })
})
