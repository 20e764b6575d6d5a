// Build of the three processes (electron-vite 6 + vite 8):
//   main     -> out/main/{index,web,cli}.js   ESM (package.json "type": "module"), deps external but the few every process loads at start
//   preload  -> out/preload/index.cjs         CommonJS: sandboxed preloads cannot be ESM
//   renderer -> out/renderer                  React app (index.html + assets)
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { META_CONTENT_SECURITY_POLICY, contentSecurityPolicy } from './src-main/transport/csp'

const r = (path: string) => resolve(import.meta.dirname, path)

/** The dev server's React refresh preamble is an inline script; the built app never needs one. */
function devCspPlugin(): Plugin {
  return {
    name: 'seam:dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(META_CONTENT_SECURITY_POLICY, contentSecurityPolicy({ dev: true }).replace(/; frame-ancestors [^;]+/, ''))
    }
  }
}

export default defineConfig({
  main: {
    build: {
      outDir: r('out/main'),
      // Dependencies load from node_modules, except two kinds that are bundled in:
      // - the ones only a worker uses: a worker (`import path from './x?modulePath'`, e.g.
      //   plugins/web-tools/markdown-worker.ts) is built as one self-contained file, unpacked from
      //   the asar archive (packaging/electron-builder.config.mjs);
      // - the pure-JavaScript ones a session loads: the few every process loads at start (zod, yaml,
      //   semver, diff, smol-toml, ignore, tinyglobby, fdir), and the model, MCP and ACP SDKs, which
      //   load on first use (src-main/llm/sdk-modules.ts, plugins/mcp/sdk-runtime.ts) each as a chunk
      //   of its own. Node resolved, opened and linked their files one by one: about 300 at every
      //   start, 320 more for the Anthropic SDK, 180 for the MCP client. Bundled, `seam --version`
      //   takes 30% less CPU and a `seam run` turn a further 0.2 s less (bench/cli-start.ts). The
      //   SDKs share Seam's one zod. picomatch stays external: fdir loads it from node_modules
      //   whether it is bundled or not.
      externalizeDeps: {
        exclude: ['turndown', 'htmlparser2', 'zod', 'yaml', 'semver', 'diff', 'smol-toml', 'ignore', 'tinyglobby', 'fdir', '@anthropic-ai/sdk', '@opentelemetry/api', 'standardwebhooks', 'openai', '@modelcontextprotocol/sdk', '@agentclientprotocol/sdk', 'ajv']
      },
      rolldownOptions: {
        input: {
          index: r('src-main/electron/main.ts'),
          web: r('src-main/web/main.ts'),
          cli: r('src-main/cli/main.ts')
        },
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
          // zod's settings (src-main/app/zod-jitless.ts) in a chunk of their own, which each
          // entry imports first: bundled into a shared chunk, they ran after modules of other
          // chunks had built schemas.
          codeSplitting: { groups: [{ name: 'zod-jitless', test: /src-main[\\/]app[\\/]zod-jitless\.ts$/ }] }
        }
      }
    }
  },
  preload: {
    build: {
      outDir: r('out/preload'),
      // Nothing to externalize: the preload imports only electron and the channel names.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: r('src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: r('src-renderer'),
    plugins: [react(), devCspPlugin()],
    build: {
      outDir: r('out/renderer'),
      emptyOutDir: true,
      minify: true,
      // One bundle for a desktop app (React, markdown); size is not a network cost here.
      chunkSizeWarningLimit: 2000,
      rolldownOptions: { input: { index: r('src-renderer/index.html') } }
    },
    // The code highlighter's worker loads each grammar on demand: module workers split into chunks.
    worker: { format: 'es' }
  }
})
