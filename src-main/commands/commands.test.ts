// Custom slash commands: files, front matter, precedence, expansion and the trust rule for shell lines.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadCustomCommands, readCommandFile, splitRules } from './custom'
import { CommandError, expandCommand, splitArguments, substituteClaude, substituteCodex } from './expand'
import { resolveModelName } from './model-alias'
import { commandSet, helpText, parseSlash } from './registry'

let root: string
let home: string
let workspace: string
let codexHome: string

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return path
}

const projectDir = () => join(workspace, '.claude', 'commands')
const userDir = () => join(home, '.claude', 'commands')
const set = () => commandSet({ workspace, env: { CODEX_HOME: codexHome }, home })

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'seam-commands-'))
  home = join(root, 'home')
  workspace = join(root, 'ws')
  codexHome = join(root, 'codex')
  mkdirSync(workspace, { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('command files (Claude Code .claude/commands, Codex prompts)', () => {
  it('reads the front matter fields description, argument-hint, allowed-tools and model', () => {
    const file = write(join(projectDir(), 'review.md'), '---\ndescription: Review a PR\nargument-hint: [pr-number] [priority]\nallowed-tools: Bash(git diff:*), Read\nmodel: small-model\n---\nReview PR #$1 with priority $2.\n')
    expect(readCommandFile(projectDir(), file, 'project')).toEqual({
      name: 'review',
      source: 'project',
      file,
      description: 'Review a PR',
      argumentHint: '[pr-number] [priority]',
      allowedTools: ['Bash(git diff:*)', 'Read'],
      model: 'small-model',
      body: 'Review PR #$1 with priority $2.\n'
    })
  })

  it('without a description, the first line of the body describes the command', () => {
    const file = write(join(userDir(), 'plain.md'), '# Explain the code\n\nExplain $ARGUMENTS\n')
    expect(readCommandFile(userDir(), file, 'user')).toMatchObject({ name: 'plain', description: 'Explain the code' })
  })

  it('a malformed front matter field is reported with the file and the field, not dropped', () => {
    write(join(projectDir(), 'broken.md'), '---\ndescription: 12\nmodel: [a, b]\n---\nbody\n')
    write(join(projectDir(), 'bad-yaml.md'), '---\ndescription: "unterminated\n---\nbody\n')
    const loaded = loadCustomCommands({ project: projectDir() })
    expect(loaded.commands).toEqual([])
    expect(loaded.problems).toEqual([
      { name: 'bad-yaml', source: 'project', file: join(projectDir(), 'bad-yaml.md'), message: expect.stringMatching(/^front matter is not valid YAML/) },
      { name: 'broken', source: 'project', file: join(projectDir(), 'broken.md'), field: 'description', message: expect.stringMatching(/^front matter field "description": /) }
    ])
  })

  it('subfolders give namespaced names (frontend/component.md is /frontend:component)', () => {
    write(join(projectDir(), 'frontend', 'component.md'), 'Make a component')
    expect(set().commands.find((c) => c.source === 'project')).toMatchObject({ name: 'frontend:component', description: 'Make a component' })
  })

  it('a project command wins over a user command of the same name, with a notice', () => {
    write(join(userDir(), 'deploy.md'), '---\ndescription: user deploy\n---\nuser')
    write(join(projectDir(), 'deploy.md'), '---\ndescription: project deploy\n---\nproject')
    const commands = set()
    expect(commands.commands.filter((c) => c.name === 'deploy')).toEqual([expect.objectContaining({ source: 'project', description: 'project deploy' })])
    expect(commands.notices).toEqual([expect.stringContaining('the project command')])
  })

  it('built-ins win over a custom command of the same name', () => {
    write(join(projectDir(), 'help.md'), 'not the help')
    const commands = set()
    expect(commands.commands.filter((c) => c.name === 'help')).toEqual([expect.objectContaining({ source: 'builtin' })])
    expect(commands.notices[0]).toContain('/help: the built-in command is used')
  })

  it('lists built-ins, user, project and Codex commands with their source; files are read at each call', () => {
    write(join(userDir(), 'mine.md'), '---\ndescription: mine\n---\nx')
    write(join(codexHome, 'prompts', 'draft.md'), '---\ndescription: Draft a PR\nargument-hint: FILES=<paths>\n---\nDraft $FILES')
    const sources = Object.fromEntries(set().commands.map((c) => [c.name, c.source]))
    expect(sources).toEqual({ clear: 'builtin', compact: 'builtin', help: 'builtin', model: 'builtin', tasks: 'builtin', usage: 'builtin', mine: 'user', 'prompts:draft': 'codex' })
    write(join(projectDir(), 'later.md'), 'added later')
    expect(set().commands.map((c) => c.name)).toContain('later')
  })

  it('/help lists every command with its hint and description, and the broken files', () => {
    write(join(projectDir(), 'review.md'), '---\ndescription: Review a PR\nargument-hint: <number>\n---\nx')
    write(join(projectDir(), 'broken.md'), '---\nallowed-tools: 3\n---\nx')
    const text = helpText(set())
    expect(text).toContain('/review <number>  Review a PR (project)')
    expect(text).toContain('/usage')
    expect(text).toContain(`(broken) /broken: ${join(projectDir(), 'broken.md')}: front matter field "allowed-tools"`)
  })

  it('an allowed-tools entry that is not a permission rule is reported naming the field', () => {
    const file = write(join(projectDir(), 'odd.md'), '---\nallowed-tools: "Bash(unclosed"\n---\nx')
    expect(readCommandFile(projectDir(), file, 'project')).toMatchObject({ field: 'allowed-tools', message: expect.stringContaining('"Bash(unclosed" is not a permission rule') })
  })

  it('splits allowed-tools at the commas outside parentheses', () => {
    expect(splitRules('Bash(git add:*, x), Read ,Edit(src/**)')).toEqual(['Bash(git add:*, x)', 'Read', 'Edit(src/**)'])
  })
})

describe('parsing a typed command', () => {
  it('takes /name and its arguments; a path is not a command', () => {
    expect(parseSlash('/review 12 high')).toEqual({ name: 'review', args: '12 high' })
    expect(parseSlash('  /frontend:component\n  with two lines')).toEqual({ name: 'frontend:component', args: 'with two lines' })
    expect(parseSlash('/usr/bin/env node')).toBeUndefined()
    expect(parseSlash('hello /review')).toBeUndefined()
  })
})

describe('expansion', () => {
  it('Claude Code: $ARGUMENTS is the whole string; $N and $ARGUMENTS[N] count from 0; quoted words kept together', () => {
    expect(substituteClaude('All: $ARGUMENTS; first: $0; second: $1; third: $2; again: $ARGUMENTS[1].', '12 "two words"')).toBe('All: 12 "two words"; first: 12; second: two words; third: ; again: two words.')
    expect(substituteClaude('$0-$10-$ARGUMENTS[10]', 'a b c d e f g h i j k')).toBe('a-k-k')
    expect(splitArguments(`a 'b c' "d \\" e"`)).toEqual(['a', 'b c', 'd " e'])
  })

  it('Claude Code: named arguments from the front matter take their positions; an argument is never substituted twice', () => {
    expect(substituteClaude('Fix $issue on $branch ($HOME stays, $2 is empty)', '"#12 crash" main', ['issue', 'branch'])).toBe('Fix #12 crash on main ($HOME stays,  is empty)')
    expect(substituteClaude('Say $0', '$1 costs $ARGUMENTS')).toBe('Say $1')
    const command = readCommandFile(projectDir(), write(join(projectDir(), 'named.md'), '---\narguments: [issue, branch]\n---\nFix $issue on $branch\n'), 'project')
    expect(command).toMatchObject({ argumentNames: ['issue', 'branch'] })
    expect(readCommandFile(projectDir(), write(join(projectDir(), 'spaced.md'), '---\narguments: issue branch\n---\n$issue\n'), 'project')).toMatchObject({ argumentNames: ['issue', 'branch'] })
    expect(readCommandFile(projectDir(), write(join(projectDir(), 'bad.md'), '---\narguments: [1st]\n---\nx\n'), 'project')).toMatchObject({ field: 'arguments', message: expect.stringContaining('"1st" is not an argument name') })
  })

  it('Claude Code: arguments a file does not place are appended as ARGUMENTS', () => {
    expect(substituteClaude('Fix the bug.\n', 'in parser.ts')).toBe('Fix the bug.\n\nARGUMENTS: in parser.ts')
    expect(substituteClaude('Fix the bug.\n', '')).toBe('Fix the bug.\n')
  })

  it('Codex: named $NAME placeholders from KEY=value arguments, $$ for a dollar', () => {
    expect(substituteCodex({ name: 'prompts:draft', body: 'Draft for $FILES titled $TITLE, costs $$5' }, 'FILES="a.ts b.ts" TITLE=Fix')).toBe('Draft for a.ts b.ts titled Fix, costs $5')
    expect(substituteCodex({ name: 'prompts:pos', body: 'First $1, all $ARGUMENTS' }, 'x y')).toBe('First x, all x y')
  })

  it('Codex: a missing named argument is an error naming it', () => {
    expect(() => substituteCodex({ name: 'prompts:draft', body: 'Draft $FILES and $TITLE' }, 'FILES=a')).toThrow('/prompts:draft is missing required arguments: TITLE=…')
    expect(() => substituteCodex({ name: 'prompts:draft', body: 'Draft $FILES' }, 'a.ts')).toThrow(/takes KEY=value arguments/)
  })

  it('@path appends the file contents; a path outside the workspace is refused', async () => {
    write(join(workspace, 'src', 'a.ts'), 'export const a = 1\n')
    write(join(root, 'secret.txt'), 'secret')
    const command = readCommandFile(projectDir(), write(join(projectDir(), 'look.md'), 'Look at @src/a.ts, then $ARGUMENTS'), 'project')
    if (!('body' in command)) throw new Error(command.message)
    expect(await expandCommand(command, 'be brief', { workspace, trusted: false })).toBe('Look at @src/a.ts, then be brief\n\nContents of src/a.ts:\n```\nexport const a = 1\n\n```')
    await expect(expandCommand(command, '@../secret.txt', { workspace, trusted: true })).rejects.toThrow('/look: @../secret.txt is outside the workspace')
  })

  it('!`cmd` runs in a trusted workspace and its output takes its place', async () => {
    const command = readCommandFile(projectDir(), write(join(projectDir(), 'status.md'), 'Here: !`echo "$PWD" && echo out-$0`\nDone.'), 'project')
    if (!('body' in command)) throw new Error(command.message)
    expect(await expandCommand(command, 'x', { workspace, trusted: true, env: { PATH: process.env.PATH ?? '' } })).toBe(`Here: ${workspace}\nout-x\nDone.`)
  })

  it('!`cmd` in an untrusted workspace is refused naming the command, and nothing runs', async () => {
    const marker = join(root, 'ran')
    const command = readCommandFile(projectDir(), write(join(projectDir(), 'danger.md'), `Run !\`touch ${marker}\``), 'project')
    if (!('body' in command)) throw new Error(command.message)
    const failure = expandCommand(command, '', { workspace, trusted: false })
    await expect(failure).rejects.toBeInstanceOf(CommandError)
    await expect(failure).rejects.toThrow(/^\/danger runs shell commands .* needs a trusted workspace/)
    expect(existsSync(marker)).toBe(false)
  })

  it('a failing shell line fails the command with its stderr', async () => {
    const command = readCommandFile(projectDir(), write(join(projectDir(), 'fail.md'), 'X !`echo nope >&2; exit 3`'), 'project')
    if (!('body' in command)) throw new Error(command.message)
    await expect(expandCommand(command, '', { workspace, trusted: true, env: { PATH: process.env.PATH ?? '' } })).rejects.toThrow('/fail: the shell command `echo nope >&2; exit 3` failed: exit code 3: nope')
  })
})

describe('Claude Code model aliases', () => {
  it('name the newest model of the family in the model table with the Anthropic provider, and are refused naming why otherwise', () => {
    const table = { 'claude-sonnet-4-5': { provider: 'anthropic' as const }, 'claude-opus-4-1': { provider: 'anthropic' as const } }
    expect(resolveModelName('sonnet', 'anthropic', table)).toBe('claude-sonnet-5-5')
    expect(resolveModelName('Opus', 'anthropic', table)).toBe('claude-opus-4-1')
    expect(resolveModelName('claude-3-5-haiku-20241022', 'openai', table)).toBe('claude-3-5-haiku-20241022')
    expect(() => resolveModelName('haiku', 'anthropic', table)).toThrow('the model table has no Claude model with "haiku" in its name')
    expect(() => resolveModelName('sonnet', 'deepseek', table)).toThrow('"sonnet" is a Claude model alias, and the provider in use is deepseek')
  })
})

