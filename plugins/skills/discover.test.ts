// Discovery, front matter and the listing budget on real SKILL.md folders written by the test
// (issue 29): every root and its precedence, clashes reported, invalid front matter reported with
// file and field (the skill skipped), plugin skills namespaced, edits seen at the next read.
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InstalledPlugin } from '@seam/sdk'
import { SkillFinder, type SkillRoots } from './discover'
import { listingDescription, MAX_DESCRIPTION_CHARS, parseSkillText } from './front-matter'
import { LISTING_HEADER, renderListing } from './listing'
import { put, skillFile } from './test-host'

let root: string
let roots: SkillRoots
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-skills-discover-'))
  await put(join(root, 'repo', '.git', 'HEAD'), 'ref: main')
  roots = { home: join(root, 'home'), codexHome: join(root, 'home', '.codex'), workspace: join(root, 'repo', 'pkg') }
})
afterEach(async () => rm(root, { recursive: true, force: true }))

const skill = (description: string, body = 'Body.') => skillFile(`description: ${description}`, body)
const at = (path: string, text: string) => put(join(root, path), text)

function plugin(name: string, skills: string[]): InstalledPlugin {
  return { name, format: 'claude', root: join(root, 'plugins', name), dataDir: join(root, 'data', name), commands: [], agents: [], skills }
}

describe('skill discovery (issue 29)', () => {
  it('reads every root: ~/.claude/skills, .claude/skills from the workspace up to the repository root, ~/.agents/skills, .agents/skills, ~/.codex/skills, plugins (namespaced)', async () => {
    await at('home/.claude/skills/personal/SKILL.md', skill('from personal'))
    await at('repo/pkg/.claude/skills/near/SKILL.md', skill('from the workspace'))
    await at('repo/.claude/skills/far/SKILL.md', skill('from the repository root'))
    await at('.claude/skills/outside/SKILL.md', skill('above the repository: not read'))
    await at('home/.agents/skills/agents-user/SKILL.md', skill('from ~/.agents'))
    await at('repo/.agents/skills/agents-project/SKILL.md', skill('from .agents'))
    await at('home/.codex/skills/codex/SKILL.md', skill('from ~/.codex'))
    await at('plugins/tools/skills/review/SKILL.md', skill('a plugin skill'))
    await at('plugins/tools/skills/named/SKILL.md', skillFile('name: pretty\ndescription: named in front matter', 'x'))
    await at('plugins/single/SKILL.md', skill('a plugin that is one skill'))
    await at('repo/.claude/skills/no-skill-file/README.md', 'not a skill')
    const catalog = new SkillFinder().discover({ ...roots, plugins: [plugin('tools', [join(root, 'plugins', 'tools', 'skills')]), plugin('single', [join(root, 'plugins', 'single')])] })
    expect(catalog.problems).toEqual([])
    expect(catalog.skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ['agents-project', 'agents-project', 'from .agents'],
      ['agents-user', 'agents-user', 'from ~/.agents'],
      ['codex', 'codex-user', 'from ~/.codex'],
      ['far', 'project', 'from the repository root'],
      ['near', 'project', 'from the workspace'],
      ['personal', 'personal', 'from personal'],
      ['single:single', 'plugin', 'a plugin that is one skill'],
      ['tools:pretty', 'plugin', 'named in front matter'],
      ['tools:review', 'plugin', 'a plugin skill']
    ])
    const review = catalog.skills.find((s) => s.name === 'tools:review')!
    expect(review.plugin).toEqual({ name: 'tools', root: join(root, 'plugins', 'tools'), dataDir: join(root, 'data', 'tools') })
    expect(catalog.skills.filter((s) => s.workspaceContent).map((s) => s.name)).toEqual(['agents-project', 'far', 'near'])
  })

  it('precedence: personal over project, the folder nearest the workspace over the root, .claude over .agents over ~/.codex; each clash is reported naming both files', async () => {
    await at('home/.claude/skills/deploy/SKILL.md', skill('personal deploy'))
    await at('repo/pkg/.claude/skills/deploy/SKILL.md', skill('project deploy'))
    await at('repo/pkg/.claude/skills/lint/SKILL.md', skill('near lint'))
    await at('repo/.claude/skills/lint/SKILL.md', skill('root lint'))
    await at('repo/.agents/skills/lint/SKILL.md', skill('agents lint'))
    await at('home/.codex/skills/lint/SKILL.md', skill('codex lint'))
    const catalog = new SkillFinder().discover(roots)
    expect(catalog.skills.map((s) => [s.name, s.description])).toEqual([
      ['deploy', 'personal deploy'],
      ['lint', 'near lint']
    ])
    expect(catalog.clashes).toEqual([
      `skill "deploy": the personal ~/.claude/skills one (${join(root, 'home/.claude/skills/deploy/SKILL.md')}) is used; the project .claude/skills one (${join(root, 'repo/pkg/.claude/skills/deploy/SKILL.md')}) is ignored`,
      `skill "lint": the project .claude/skills one (${join(root, 'repo/pkg/.claude/skills/lint/SKILL.md')}) is used; the project .claude/skills one (${join(root, 'repo/.claude/skills/lint/SKILL.md')}) is ignored`,
      `skill "lint": the project .claude/skills one (${join(root, 'repo/pkg/.claude/skills/lint/SKILL.md')}) is used; the project .agents/skills one (${join(root, 'repo/.agents/skills/lint/SKILL.md')}) is ignored`,
      `skill "lint": the project .claude/skills one (${join(root, 'repo/pkg/.claude/skills/lint/SKILL.md')}) is used; the Codex ~/.codex/skills one (${join(root, 'home/.codex/skills/lint/SKILL.md')}) is ignored`
    ])
  })

  it('invalid front matter is reported with the file and the field, and the skill is skipped (a valid one of the same name lower down is used)', async () => {
    await at('home/.claude/skills/deploy/SKILL.md', skillFile('description: ok\nuser-invocable: sometimes', 'x'))
    await at('repo/pkg/.claude/skills/deploy/SKILL.md', skill('project deploy'))
    await at('repo/pkg/.claude/skills/tools/SKILL.md', skillFile('allowed-tools: Bash(git:*), (oops', 'x'))
    await at('repo/pkg/.claude/skills/fork/SKILL.md', skillFile('context: spoon', 'x'))
    await at('repo/pkg/.claude/skills/yaml/SKILL.md', '---\ndescription: [unclosed\n---\nx')
    const catalog = new SkillFinder().discover(roots)
    expect(catalog.skills.map((s) => [s.name, s.description])).toEqual([['deploy', 'project deploy']])
    expect(catalog.problems).toEqual([
      { name: 'deploy', file: join(root, 'home/.claude/skills/deploy/SKILL.md'), field: 'user-invocable', message: 'front matter field "user-invocable": Invalid input: expected boolean, received string' },
      { name: 'fork', file: join(root, 'repo/pkg/.claude/skills/fork/SKILL.md'), field: 'context', message: 'front matter field "context": the only value is "fork" (run the skill as a subagent)' },
      { name: 'tools', file: join(root, 'repo/pkg/.claude/skills/tools/SKILL.md'), field: 'allowed-tools', message: expect.stringContaining('"(oops" is not a permission rule') },
      { name: 'yaml', file: join(root, 'repo/pkg/.claude/skills/yaml/SKILL.md'), message: expect.stringContaining('front matter is not valid YAML') }
    ])
  })

  it('every documented front matter field is accepted; license, compatibility and metadata are taken and not acted on; description defaults to the first paragraph', () => {
    const parsed = parseSkillText(
      skillFile(
        [
          'name: pdf-tools', 'description: Fill PDF forms', 'when_to_use: when a PDF is attached', 'argument-hint: [file] [pages]', 'arguments: [file, pages]',
          'disable-model-invocation: false', 'user-invocable: true', 'allowed-tools: Read, Bash(python3:*)', 'disallowed-tools: [Write]', 'model: sonnet', 'effort: high',
          'context: fork', 'agent: Explore', 'background: false', 'paths: "docs/**/*.pdf, forms/*"', 'shell: bash', 'license: MIT', 'compatibility: claude-code>=2', 'metadata: {team: docs}',
          'hooks: {PreToolUse: []}'
        ].join('\n'),
        'Body'
      )
    )
    expect('front' in parsed && parsed.front).toMatchObject({
      name: 'pdf-tools', 'argument-hint': '[file] [pages]', arguments: ['file', 'pages'], 'allowed-tools': ['Read', 'Bash(python3:*)'], context: 'fork', agent: 'Explore', paths: ['docs/**/*.pdf', 'forms/*'], metadata: { team: 'docs' }
    })
    const plain = parseSkillText('# Title\n\nFirst paragraph\nstill first.\n\nSecond.')
    expect('front' in plain && listingDescription(plain.front, plain.body)).toBe('First paragraph still first.')
    const long = parseSkillText(skillFile(`description: ${'d'.repeat(1000)}\nwhen_to_use: ${'w'.repeat(1000)}`, 'x'))
    expect('front' in long && listingDescription(long.front, long.body)).toHaveLength(MAX_DESCRIPTION_CHARS)
  })

  it('an edited, added or removed SKILL.md is seen at the next read', async () => {
    const finder = new SkillFinder()
    const file = join(root, 'repo/pkg/.claude/skills/deploy/SKILL.md')
    await put(file, skill('first'))
    expect(finder.discover(roots).skills.map((s) => s.description)).toEqual(['first'])
    await writeFile(file, skill('second, longer'))
    await utimes(file, new Date(), new Date(Date.now() + 5_000))
    await at('repo/pkg/.claude/skills/new/SKILL.md', skill('new one'))
    expect(finder.discover(roots).skills.map((s) => s.description)).toEqual(['second, longer', 'new one'])
    await rm(join(root, 'repo/pkg/.claude/skills/deploy'), { recursive: true })
    expect(finder.discover(roots).skills.map((s) => s.name)).toEqual(['new'])
  })
})

describe('the parse cache across processes', () => {
  it('a new finder with the same cache file takes unchanged files from it (by content hash) and parses changed ones', async () => {
    const cacheFile = join(root, 'seam-home', 'skills', 'parsed.json')
    const file = join(root, 'repo/pkg/.claude/skills/deploy/SKILL.md')
    await put(file, skill('from the file'))
    expect(new SkillFinder(cacheFile).discover(roots).skills[0].description).toBe('from the file')
    // Proof the next process reads the cache: an entry edited in it is what it sees.
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { entries: Record<string, { front: { description: string } }> }
    for (const entry of Object.values(cache.entries)) entry.front.description = 'from the cache'
    await writeFile(cacheFile, JSON.stringify(cache))
    expect(new SkillFinder(cacheFile).discover(roots).skills[0].description).toBe('from the cache')
    await writeFile(file, skill('edited'))
    expect(new SkillFinder(cacheFile).discover(roots).skills[0].description).toBe('edited')
    await writeFile(cacheFile, 'not json')
    expect(new SkillFinder(cacheFile).discover(roots).skills[0].description).toBe('edited')
  })
})

describe('the listing budget (issue 29: ~1% of the context window, least used cut first)', () => {
  const skills = [
    { name: 'alpha', description: 'a'.repeat(60) },
    { name: 'beta', description: 'b'.repeat(60) },
    { name: 'gamma', description: 'c'.repeat(60) }
  ]
  const uses: Record<string, number> = { alpha: 5, beta: 0, gamma: 2 }

  it('lists names and descriptions when they fit', () => {
    const listing = renderListing(skills, { budgetChars: 10_000, uses: (n) => uses[n] })
    expect(listing.text).toBe(`${LISTING_HEADER}\n\n- alpha: ${'a'.repeat(60)}\n- beta: ${'b'.repeat(60)}\n- gamma: ${'c'.repeat(60)}`)
  })

  it('cuts the least-used descriptions first, then the least-used names, and says how many were left out', () => {
    const oneCut = renderListing(skills, { budgetChars: 160, uses: (n) => uses[n] })
    expect(oneCut.text).toBe(`${LISTING_HEADER}\n\n- alpha: ${'a'.repeat(60)}\n- beta\n- gamma: ${'c'.repeat(60)}`)
    const namesOnly = renderListing(skills, { budgetChars: 30, uses: (n) => uses[n] })
    expect(namesOnly).toMatchObject({ described: 0, nameOnly: 3, omitted: 0 })
    const dropped = renderListing(skills, { budgetChars: 16, uses: (n) => uses[n] })
    expect(dropped.text).toBe(`${LISTING_HEADER}\n\n- alpha\n- gamma\n(1 more skill is installed and not listed here for lack of room.)`)
  })
})
