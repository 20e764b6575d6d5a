// Reading `permissions` and `env` from Claude Code's settings files: the same sources and order as
// the hooks (claude-code-hooks.md §2.1), the trust gate, whole-file drops, per-rule warnings.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readClaudeSettings, ruleProblem, type ReadOptions } from './read'

let dir: string
let options: ReadOptions
let files: { user: string; project: string; local: string }

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'seam-claude-settings-'))
  const home = join(dir, 'home')
  const ws = join(dir, 'ws')
  mkdirSync(join(home, '.claude'), { recursive: true })
  mkdirSync(join(ws, '.claude'), { recursive: true })
  files = { user: join(home, '.claude', 'settings.json'), project: join(ws, '.claude', 'settings.json'), local: join(ws, '.claude', 'settings.local.json') }
  options = { userSettingsPath: files.user, workspaceRoot: ws, trusted: true, home }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (which: keyof typeof files, content: unknown) => writeFileSync(files[which], typeof content === 'string' ? content : JSON.stringify(content))

describe('permissions and env from the settings files (§2.1)', () => {
  it('rules of user, project and local merge in configuration order, each with its file and index', () => {
    write('user', { permissions: { allow: ['Bash(npm run test:*)', 'Read'], deny: ['Read(./secrets/**)'] } })
    write('project', { permissions: { ask: ['Bash(git push:*)'], allow: ['Edit(src/**)'] } })
    write('local', { permissions: { allow: ['WebFetch(domain:example.com)', 'mcp__server__tool', 'mcp__server__*'] } })
    const snapshot = readClaudeSettings(options)
    expect(snapshot.rules.map((r) => [r.source, r.behavior, r.rule, r.index])).toEqual([
      ['user', 'allow', 'Bash(npm run test:*)', 0],
      ['user', 'allow', 'Read', 1],
      ['user', 'deny', 'Read(./secrets/**)', 0],
      ['project', 'allow', 'Edit(src/**)', 0],
      ['project', 'ask', 'Bash(git push:*)', 0],
      ['local', 'allow', 'WebFetch(domain:example.com)', 0],
      ['local', 'allow', 'mcp__server__tool', 1],
      ['local', 'allow', 'mcp__server__*', 2]
    ])
    expect(snapshot.rules[4].file).toBe(files.project)
    expect(snapshot.warnings).toEqual([])
  })

  it('defaultMode and env follow scalar precedence local > project > user; additionalDirectories merge, resolved', () => {
    write('user', { permissions: { defaultMode: 'dontAsk', additionalDirectories: ['~/lib'] }, env: { A: 'user', B: 'user' } })
    write('project', { permissions: { defaultMode: 'acceptEdits', additionalDirectories: ['../sibling', '/abs/x'] }, env: { B: 'project', C: 'project' } })
    write('local', { env: { C: 'local' } })
    const snapshot = readClaudeSettings(options)
    expect(snapshot.defaultMode).toEqual({ source: 'project', file: files.project, mode: 'acceptEdits' })
    expect(snapshot.env.map((v) => [v.name, v.value, v.source])).toEqual([
      ['A', 'user', 'user'],
      ['B', 'project', 'project'],
      ['C', 'local', 'local']
    ])
    expect(snapshot.additionalDirectories.map((d) => d.resolved)).toEqual([join(options.home, 'lib'), join(dir, 'sibling'), '/abs/x'])
  })

  it("an untrusted workspace's files are not applied; the user's are", () => {
    write('user', { permissions: { deny: ['Bash(rm *)'] } })
    write('project', { permissions: { allow: ['Bash'], defaultMode: 'bypassPermissions' }, env: { X: '1' } })
    const snapshot = readClaudeSettings({ ...options, trusted: false })
    expect(snapshot.rules.map((r) => r.rule)).toEqual(['Bash(rm *)'])
    expect(snapshot.defaultMode).toBeUndefined()
    expect(snapshot.env).toEqual([])
    expect(snapshot.files.map((f) => [f.source, f.status])).toEqual([
      ['user', 'loaded'],
      ['project', 'untrusted'],
      ['local', 'untrusted']
    ])
  })

  it('§2.1: a file that fails validation is dropped whole, its permissions and env too, with a warning naming the field', () => {
    write('project', { permissions: { deny: ['Bash'] }, env: { X: '1' }, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] } })
    write('local', '{ not json')
    const snapshot = readClaudeSettings(options)
    expect(snapshot.rules).toEqual([])
    expect(snapshot.env).toEqual([])
    expect(snapshot.warnings[0]).toMatch(new RegExp(`^Claude Code settings: ${escape(files.project)} was skipped \\(its permissions and env too\\): hooks\\.PreToolUse\\[0\\]\\.hooks\\[0\\]\\.timeout: `))
    expect(snapshot.warnings[1]).toMatch(new RegExp(`^Claude Code settings: ${escape(files.local)} was skipped: is not valid JSON`))
  })

  it('a malformed rule is reported with its file and index and ignored; the rest of the file loads', () => {
    write('user', {
      permissions: { allow: ['Bash(git status', 'Read', 42, 'bash(ls)', ''], deny: 'Bash', defaultMode: 'yolo', additionalDirectories: [7] },
      env: { GOOD: 'yes', BAD: 3, 'NOT-A-NAME': 'x' }
    })
    const snapshot = readClaudeSettings(options)
    expect(snapshot.rules.map((r) => [r.rule, r.index])).toEqual([['Read', 1]])
    expect(snapshot.env.map((v) => v.name)).toEqual(['GOOD'])
    const at = `Claude Code settings: ${files.user}: `
    expect(snapshot.warnings).toEqual([
      `${at}permissions.allow[0] invalid permission rule "Bash(git status": expected Tool or Tool(specifier); this rule is ignored`,
      `${at}permissions.allow[2] is number 42, not a rule; this rule is ignored`,
      `${at}permissions.allow[3] invalid permission rule "bash(ls)": tool names start with an uppercase letter (or are mcp__server__tool); this rule is ignored`,
      `${at}permissions.allow[4] is empty, not a rule; this rule is ignored`,
      `${at}permissions.deny is "Bash", not a list of rules; it is ignored`,
      `${at}permissions.defaultMode is "yolo", not one of default, acceptEdits, plan, bypassPermissions, dontAsk; it is ignored`,
      `${at}permissions.additionalDirectories[0] is number 7, not a folder path; it is ignored`,
      `${at}env.BAD is number 3, not a string; it is ignored`,
      `${at}env.NOT-A-NAME is not a valid environment variable name; it is ignored`
    ])
  })

  it('missing files are not problems', () => {
    const snapshot = readClaudeSettings(options)
    expect(snapshot.files.map((f) => f.status)).toEqual(['missing', 'missing', 'missing'])
    expect(snapshot.warnings).toEqual([])
  })

  it('ruleProblem accepts the rule shapes Claude Code documents', () => {
    for (const rule of ['Bash', 'Bash(npm run test:*)', 'Read(./secrets/**)', 'Edit(src/**)', 'WebFetch(domain:example.com)', 'mcp__server__tool', 'mcp__server__*', 'mcp__server']) {
      expect(ruleProblem(rule), rule).toBeUndefined()
    }
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

describe('trust pinning (issue 13: Trust)', () => {
  it('a workspace file that changed since it was approved is not applied, with a warning naming it', () => {
    write('project', { permissions: { allow: ['Bash(curl *)'] }, env: { PROXY: 'http://evil.test' } })
    write('user', { env: { MINE: '1' } })
    const read = readClaudeSettings({ ...options, trusted: true, approvedFile: (file) => file !== files.project })
    expect(read.rules.some((rule) => rule.rule === 'Bash(curl *)')).toBe(false)
    expect(read.env.map((variable) => variable.name)).toEqual(['MINE'])
    expect(read.files.find((file) => file.file === files.project)?.status).toBe('unapproved')
    expect(read.warnings.join('\n')).toContain(`${files.project} changed since you trusted this workspace`)
  })
})
