// The `if` handler filter (claude-code-hooks.md §2.2): permission-rule patterns against a tool call.
import { beforeAll, describe, it, expect } from 'vitest'
import { loadBashParser } from './bash-command/index'
import { matchesPermissionRule, parsePermissionRule } from './permission-rule'

beforeAll(() => loadBashParser())

const ctx = { cwd: '/srv/proj', home: '/home/u' }

const CASES: Array<[rule: string, tool: string, input: Record<string, unknown>, expected: boolean]> = [
  // Observed: `Bash(echo *)` ran for an echo, `Bash(rm *)` did not.
  ['Bash(echo *)', 'Bash', { command: 'echo hi' }, true],
  ['Bash(rm *)', 'Bash', { command: 'echo hi' }, false],
  ['Bash', 'Bash', { command: 'anything at all' }, true],
  ['Bash()', 'Bash', { command: 'ls' }, true],
  ['Bash(*)', 'Bash', { command: 'ls' }, true],
  ['Bash', 'Read', { file_path: '/x' }, false],
  ['Bash(git *)', 'Bash', { command: 'git status' }, true],
  ['Bash(git *)', 'Bash', { command: 'git' }, true],
  ['Bash(git *)', 'Bash', { command: 'gitk' }, false],
  ['Bash(git *)', 'Bash', { command: 'echo git status' }, false],
  ['Bash(git*)', 'Bash', { command: 'gitk' }, true],
  ['Bash(git commit *)', 'Bash', { command: 'git commit -m "multi\nline"' }, true],
  ['Bash(npm run test:*)', 'Bash', { command: 'npm run test --watch' }, true],
  ['Bash(npm run test:*)', 'Bash', { command: 'npm run test' }, true],
  ['Bash(npm run test:*)', 'Bash', { command: 'npm run testing' }, false],
  ['Bash(* --force)', 'Bash', { command: 'git push --force' }, true],
  ['Edit(src/**)', 'Edit', { file_path: '/srv/proj/src/a/b.ts' }, true],
  ['Edit(src/**)', 'Edit', { file_path: '/srv/proj/test/b.ts' }, false],
  ['Edit(src/**)', 'Edit', { file_path: 'src/x.ts' }, true],
  ['Edit(src/**)', 'Write', { file_path: '/srv/proj/src/new.ts' }, true],
  ['Edit(*.md)', 'Edit', { file_path: '/srv/proj/docs/deep/README.md' }, true],
  ['Edit(*.md)', 'Edit', { file_path: '/srv/proj/docs/x.ts' }, false],
  ['Edit(src/*.ts)', 'Edit', { file_path: '/srv/proj/src/a/b.ts' }, false],
  ['Edit(src/)', 'Edit', { file_path: '/srv/proj/src/a/b.ts' }, true],
  ['Read(//etc/**)', 'Read', { file_path: '/etc/passwd' }, true],
  ['Read(~/.ssh/**)', 'Read', { file_path: '/home/u/.ssh/id_rsa' }, true],
  ['Read(./.env)', 'Read', { file_path: '/srv/proj/.env' }, true],
  ['Read(/secrets/**)', 'Read', { file_path: '/srv/proj/secrets/k' }, true],
  ['Read(.env)', 'Read', { file_path: '/srv/proj/sub/.env' }, true],
  ['Write(src/**)', 'Edit', { file_path: '/srv/proj/src/a.ts' }, false],
  ['NotebookEdit(*.ipynb)', 'NotebookEdit', { notebook_path: '/srv/proj/n.ipynb' }, true],
  ['Grep(src/**)', 'Grep', { path: '/srv/proj/src/x' }, true],
  ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://docs.example.com/a' }, true],
  ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.org/' }, false],
  ['WebFetch(domain:example.com)', 'WebFetch', { url: 'not a url' }, false],
  ['Agent(Explore)', 'Agent', { subagent_type: 'Explore' }, true],
  ['mcp__srv', 'mcp__srv__echo', {}, true],
  ['mcp__srv__*', 'mcp__srv__echo', {}, true],
  ['mcp__srv__echo', 'mcp__srv__echo', {}, true],
  ['mcp__srv', 'mcp__srv2__echo', {}, false],
  // A compound line matches when any of its parts does (the hook guarding a part must run).
  ['Bash(rm *)', 'Bash', { command: 'echo start && rm -f victim.txt' }, true],
  ['Bash(git push *)', 'Bash', { command: 'npm test && git push origin' }, true],
  ['Bash(git push *)', 'Bash', { command: 'FOO=1 timeout 5 git push' }, true],
  ['Bash(rm *)', 'Bash', { command: "bash -c 'rm x' | cat" }, true],
  ['Bash(rm *)', 'Bash', { command: 'echo $(rm x)' }, true],
  ['Bash(rm *)', 'Bash', { command: 'echo "rm x" && ls' }, false],
  ['Bash(echo *)', 'Bash', { command: 'echo a && touch b' }, true],
  // Seen through an absolute path, a quoted name and sudo/doas/run0, as deny and ask rules are.
  ['Bash(rm *)', 'Bash', { command: 'echo a && /bin/rm -f x' }, true],
  ['Bash(rm *)', 'Bash', { command: 'sudo -u bob rm x' }, true],
  ['Bash(rm *)', 'Bash', { command: 'doas rm x' }, true],
  ['Bash(rm *)', 'Bash', { command: '"rm" x' }, true],
  ['Bash(rm *)', 'Bash', { command: './rm x' }, false],
  // A line that cannot be read matches every Bash pattern: the hook decides.
  ['Bash(git *)', 'Bash', { command: '$CMD status' }, true],
  ['Bash(git *)', 'Bash', { command: 'echo "unbalanced' }, true],
  ['Bash(echo *', 'Bash', { command: 'echo hi' }, false],
  ['', 'Bash', { command: 'echo hi' }, false]
]

describe('matchesPermissionRule', () => {
  it.each(CASES)('%s on %s %j -> %s', (rule, tool, input, expected) => {
    expect(matchesPermissionRule(rule, tool, input, ctx)).toBe(expected)
  })

  it('without a cwd, a relative path pattern matches any tail of the path', () => {
    expect(matchesPermissionRule('Edit(src/**)', 'Edit', { file_path: '/anywhere/src/a.ts' })).toBe(true)
    expect(matchesPermissionRule('Edit(src/**)', 'Edit', { file_path: '/anywhere/lib/a.ts' })).toBe(false)
  })

  it('parsePermissionRule names a malformed rule', () => {
    expect(parsePermissionRule('Bash(git *)')).toEqual({ ok: true, tool: 'Bash', specifier: 'git *' })
    expect(parsePermissionRule('Bash')).toEqual({ ok: true, tool: 'Bash' })
    const bad = parsePermissionRule('Bash(x')
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error).toContain('Bash(x')
  })
})
