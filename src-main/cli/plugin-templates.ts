// The files `seam plugin new` writes: a bundle written against @seam/sdk, built with the SDK's
// bundle build, tested on the real loop with the SDK's test host.

export interface ScaffoldOptions {
  /** The npm package name, which is also the plugin's name. */
  name: string
  host: boolean
  client: boolean
  /** engines.seam becomes `^<sdkVersion>`. */
  sdkVersion: string
}

/**
 * What a new bundle builds and tests with besides @seam/sdk (which brings Vite and React for its
 * build): the versions Seam itself pins (plugin-author.test.ts checks they agree with its package.json).
 */
export const SCAFFOLD_DEV_DEPENDENCIES: Record<string, string> = {
  zod: '4.6.7',
  typescript: '5.9.3',
  vitest: '4.1.12',
  '@types/node': '20.19.43',
  '@types/react': '19.3.3'
}

/** `my-bundle` / `@me/my-bundle` → `MyBundle`: the tool's name. */
export function toolNameOf(name: string): string {
  const base = name.split('/').pop() ?? name
  const words = base.split(/[^a-zA-Z0-9]+/).filter(Boolean)
  const pascal = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')
  return /^[A-Za-z]/.test(pascal) ? pascal : `Tool${pascal}`
}

function packageJson(o: ScaffoldOptions): string {
  const seam: Record<string, string> = {}
  if (o.host) seam.host = 'dist/host.js'
  if (o.client) seam.client = 'dist/client.js'
  const manifest = {
    name: o.name,
    version: '0.1.0',
    description: `A Seam plugin: the ${toolNameOf(o.name)} tool${o.client ? ' with a result renderer and a sidebar panel' : ''}`,
    type: 'module',
    keywords: ['seam-plugin'],
    engines: { seam: `^${o.sdkVersion}` },
    seam,
    files: ['dist', 'README.md'],
    scripts: { build: 'node build.mjs', typecheck: 'tsc --noEmit', test: 'vitest run' },
    devDependencies: {
      '@seam/sdk': `^${o.sdkVersion}`,
      ...Object.fromEntries(Object.entries(SCAFFOLD_DEV_DEPENDENCIES).filter(([name]) => o.client || name !== '@types/react'))
    }
  }
  return JSON.stringify(manifest, null, 2) + '\n'
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "jsx": "react-jsx",
    "strict": true,
    "skipLibCheck": true,
    "resolveJsonModule": true,
    "isolatedModules": true,
    "noEmit": true,
    "types": ["node"]
  },
  "include": ["src"]
}
`

const BUILD = `// Builds dist/host.js and dist/client.js with the SDK's bundle build (Vite): the host part with
// its dependencies bundled in, the client part using the app's shared React and @seam/client.
import { buildBundle } from '@seam/sdk/build'

for (const file of await buildBundle({ dir: import.meta.dirname })) console.log(file)
`

function host(o: ScaffoldOptions): string {
  const tool = toolNameOf(o.name)
  return `// The host part: runs in Seam's main process. It registers the ${tool} tool.
import { z } from 'zod'
import { definePlugin, defineTool } from '@seam/sdk'

export const TOOL_NAME = '${tool}'

export const tool = defineTool({
  name: TOOL_NAME,
  description: 'Counts the characters of a text.',
  inputSchema: z.strictObject({ text: z.string().describe('The text to measure') }),
  concurrent: true,
  sideEffects: false,
  execute({ text }) {
    const characters = [...text].length
    return { content: \`\${characters} characters\`, structured: { characters } }
  }
})

export default definePlugin({
  name: ${JSON.stringify(o.name)},
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register(tool)
  }
})
`
}

function hostTest(o: ScaffoldOptions): string {
  return `// The plugin on Seam's real loop (kernel, tool pipeline, agent, session log) with a scripted model.
import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '@seam/sdk/testing'
import plugin, { TOOL_NAME } from './host'

let host: TestHost | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

describe(${JSON.stringify(o.name)}, () => {
  it('the model calls the tool and gets its result back', async () => {
    host = await createTestHost({
      plugins: [plugin],
      script: [{ toolCalls: [{ name: TOOL_NAME, args: { text: 'héllo' } }] }, { text: 'Five.' }]
    })
    await host.run('How long is héllo?')
    expect(host.events('tool/result')).toMatchObject([{ name: TOOL_NAME, isError: false, content: '5 characters' }])
    expect(host.model.requests[0].tools.map((t) => t.name)).toContain(TOOL_NAME)
  })

  it('a call with bad arguments is an error result naming the field, not a crash', async () => {
    host = await createTestHost({
      plugins: [plugin],
      script: [{ toolCalls: [{ name: TOOL_NAME, args: { text: 42 } }] }, { text: 'Oops.' }]
    })
    await host.run('go')
    const [result] = host.events('tool/result')
    expect(result.isError).toBe(true)
    expect(result.content).toContain('text')
  })
})
`
}

function client(o: ScaffoldOptions): string {
  const tool = toolNameOf(o.name)
  return `// The client part: loaded by Seam's UI. It renders ${tool} results and adds a sidebar panel.
// \`react\` is the app's own instance (the build maps it to a shim), so no React is bundled.
import type { ClientContext, ToolResultProps } from '@seam/sdk/client'

const TOOL_NAME = '${tool}'

function Result({ result }: ToolResultProps) {
  return <div data-testid=${JSON.stringify(`${tool}-result`)}>{result.content}</div>
}

export default function activate(ctx: ClientContext) {
  const disposers = [
    ctx.slots.toolResultRenderer(TOOL_NAME, (props) => <Result {...props} />),
    ctx.slots.sidebarPanel({ id: 'panel', title: ${JSON.stringify(tool)}, render: () => <p>Ask the agent to use {TOOL_NAME}.</p> })
  ]
  return () => {
    for (const dispose of disposers) dispose()
  }
}
`
}

function readme(o: ScaffoldOptions): string {
  const tool = toolNameOf(o.name)
  const parts = [o.host && `- \`src/host.ts\`: the host part, the \`${tool}\` tool (tested in \`src/host.test.ts\`).`, o.client && `- \`src/client.tsx\`: the client part, a renderer for \`${tool}\` results and a sidebar panel.`]
  return `# ${o.name}

A Seam plugin bundle, written against the plugin SDK (\`@seam/sdk\`).

${parts.filter(Boolean).join('\n')}

\`\`\`sh
npm install            # @seam/sdk and the tools below
seam plugin dev .      # build, load into every running Seam, rebuild and reload on each save
npm run typecheck
npm run build          # dist/host.js, dist/client.js
npm test               # the tests, on Seam's real loop with a scripted model
seam plugin pack       # checks package.json as install will, writes ${o.name.replace('@', '').replace('/', '-')}-0.1.0.tgz
seam plugin install ./${o.name.replace('@', '').replace('/', '-')}-0.1.0.tgz
\`\`\`

\`engines.seam\` in package.json is the range of plugin API versions (\`@seam/sdk\`) the bundle works with.
`
}

/** Every file of a new bundle, by path. */
export function bundleFiles(o: ScaffoldOptions): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': packageJson(o),
    'tsconfig.json': TSCONFIG,
    'build.mjs': BUILD,
    // The bundle's own test config, so vitest never picks up a config from a folder above it.
    'vitest.config.mjs': "export default { test: { include: ['src/**/*.test.{ts,tsx}'], testTimeout: 20_000 } }\n",
    'README.md': readme(o),
    '.gitignore': 'dist/\n*.tgz\nnode_modules/\n'
  }
  if (o.host) {
    files['src/host.ts'] = host(o)
    files['src/host.test.ts'] = hostTest(o)
  }
  if (o.client) files['src/client.tsx'] = client(o)
  return files
}
