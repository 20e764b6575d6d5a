// npm's settings as Seam reads them for a registry install (issue 18: Sharing): the layers npm
// reads, in npm's order, with `${VAR}` expansion, scoped registries and keyed auth.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadNpmConfig, publicUrl, registryFor } from './registry-config'

let root: string
let env: NodeJS.ProcessEnv
let workspace: string

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'seam-npmrc-'))
  workspace = path.join(root, 'workspace')
  await mkdir(path.join(root, 'home'), { recursive: true })
  await mkdir(workspace, { recursive: true })
  await writeFile(path.join(root, 'global'), '')
  env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), npm_config_globalconfig: path.join(root, 'global') }
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('loadNpmConfig', () => {
  it('reads ~/.npmrc, then lets the project .npmrc override it, with ${VAR} expanded and scope registries kept', async () => {
    await writeFile(path.join(root, 'home/.npmrc'), 'registry=https://user.example/\n@acme:registry=https://acme-user.example/\n')
    await writeFile(path.join(workspace, '.npmrc'), '@acme:registry=https://npm.acme.example/sub/\n//npm.acme.example/sub/:_authToken=${ACME_TOKEN}\n')
    const options = await loadNpmConfig({ cwd: workspace, env: { ...env, ACME_TOKEN: 'tok-123' } })
    expect(registryFor('plain', options)).toBe('https://user.example/')
    expect(registryFor('@acme/thing', options)).toBe('https://npm.acme.example/sub/')
    expect(options['//npm.acme.example/sub/:_authToken']).toBe('tok-123')
    // npm's cache is not used: every download is verified afresh.
    expect(options.cache).toBeUndefined()
  })

  it('NPM_CONFIG_USERCONFIG names the user file, and npm_config_registry overrides every file', async () => {
    await writeFile(path.join(root, 'other-npmrc'), 'registry=https://other.example/\n')
    const fromFile = await loadNpmConfig({ cwd: workspace, env: { ...env, NPM_CONFIG_USERCONFIG: path.join(root, 'other-npmrc') } })
    expect(registryFor('x', fromFile)).toBe('https://other.example/')
    const fromEnv = await loadNpmConfig({ cwd: workspace, env: { ...env, NPM_CONFIG_USERCONFIG: path.join(root, 'other-npmrc'), npm_config_registry: 'https://env.example' } })
    expect(registryFor('x', fromEnv)).toBe('https://env.example/')
  })

  it('without any setting, the public npm registry', async () => {
    expect(registryFor('x', await loadNpmConfig({ cwd: workspace, env }))).toBe('https://registry.npmjs.org/')
  })

  it("refuses an un-keyed top-level _authToken with npm's own message, without the token", async () => {
    await writeFile(path.join(root, 'home/.npmrc'), '_authToken=very-secret-token\n')
    const error = await loadNpmConfig({ cwd: workspace, env }).catch((e: Error) => e)
    expect((error as Error).message).toMatch(/reading npm's configuration: .*_authToken/)
    expect((error as Error).message).not.toContain('very-secret-token')
  })

  it('does not change the environment it was given (npm exports what it read into its env)', async () => {
    await writeFile(path.join(root, 'home/.npmrc'), 'registry=https://user.example/\n')
    const before = { ...env }
    await loadNpmConfig({ cwd: workspace, env })
    expect(env).toEqual(before)
  })

  it("leaves this process's environment as it was: npm's loader writes its user agent, and NODE_ENV when dev dependencies are omitted, into process.env", async () => {
    await writeFile(path.join(root, 'home/.npmrc'), 'omit=dev\n')
    vi.stubEnv('npm_config_user_agent', undefined)
    vi.stubEnv('NODE_ENV', 'test')
    try {
      const options = await loadNpmConfig({ cwd: workspace, env })
      expect(options.omit).toEqual(['dev'])
      expect(process.env.npm_config_user_agent).toBeUndefined()
      expect(process.env.NODE_ENV).toBe('test')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('publicUrl', () => {
  it('removes a user name and password from a registry URL', () => {
    expect(publicUrl('https://me:pw@registry.example/npm/')).toBe('https://registry.example/npm/')
  })
})
