// The e2e `test` with a model and a workspace: e2e/fixtures.ts plus
// - `fakeModel`: a fake OpenAI-compatible server for this test (see fake-model.ts);
// - `workspace`: an empty folder for the agent to work in;
// - `seamSetup` (option): 'configured' writes <Seam home>/settings.json naming the workspace and
//   the fake model before the host starts; 'first-run' writes nothing, so the UI asks for both;
// - `seamSettings` (option): more settings.json fields (e.g. approvalMode) for 'configured'.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base } from '../fixtures'
import { startFakeModel, type FakeModel } from './fake-model'

export interface SeamTestOptions {
  seamSetup: 'configured' | 'first-run'
  seamSettings: Record<string, unknown>
}

export interface SeamTestFixtures extends SeamTestOptions {
  fakeModel: FakeModel
  workspace: string
}

export const test = base.extend<SeamTestFixtures>({
  seamSetup: ['configured', { option: true }],
  seamSettings: [{}, { option: true }],

  fakeModel: async ({}, use) => {
    const model = await startFakeModel()
    await use(model)
    await model.close()
  },

  workspace: async ({ tempRoot }, use) => {
    const dir = join(tempRoot, 'workspace')
    await mkdir(dir, { recursive: true })
    await use(dir)
  },

  seamHomeFiles: async ({ seamSetup, seamSettings, fakeModel, workspace }, use) => {
    if (seamSetup === 'first-run') return use({})
    const settings = {
      workspace,
      provider: { provider: 'openai-compatible', baseUrl: fakeModel.url, model: 'fake-model' },
      ...seamSettings
    }
    await use({ 'settings.json': JSON.stringify(settings, null, 2) + '\n' })
  }
})

export { expect } from '../fixtures'
