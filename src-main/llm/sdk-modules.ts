// The providers' SDKs load on a client's first request, not when Seam starts: `seam --help`,
// `seam plugin list`, a session on the other provider and every test that never calls a model do
// not pay for them (together about 0.3 s of CPU at every start from node_modules; about 0.07 s now
// that the build bundles each as a chunk of its own: electron.vite.config.ts). Once loaded, a
// module is kept.

type AnthropicModule = typeof import('@anthropic-ai/sdk')
type OpenAIModule = typeof import('openai')

let anthropic: Promise<AnthropicModule> | undefined
let openai: Promise<OpenAIModule> | undefined
const loaded: { anthropic?: AnthropicModule; openai?: OpenAIModule } = {}

export function loadAnthropicSdk(): Promise<AnthropicModule> {
  return (anthropic ??= import('@anthropic-ai/sdk').then((module) => (loaded.anthropic = module)))
}

export function loadOpenAISdk(): Promise<OpenAIModule> {
  return (openai ??= import('openai').then((module) => (loaded.openai = module)))
}

/** The SDKs loaded so far: an error can only be an instance of a class of one of these. */
export function loadedSdks(): ReadonlyArray<AnthropicModule | OpenAIModule> {
  return [loaded.openai, loaded.anthropic].filter((module): module is AnthropicModule | OpenAIModule => module !== undefined)
}
