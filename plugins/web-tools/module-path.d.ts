// `import path from './file?modulePath'`: the path of `file` built as its own self-contained module
// (electron-vite's build does it for the app; scripts/vite-module-path.mjs for tests and benches).
declare module '*?modulePath' {
  const path: string
  export default path
}
