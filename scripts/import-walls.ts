// The import walls of the repository (the layering the architecture rests on), as rules over
// every import, export-from, dynamic import, require and `declare module` of the source tree:
//   - src-shared/ imports neither src-main/, src-renderer/ nor Node built-ins (it runs in both processes);
//   - src-renderer/ never imports src-main/ (it reaches the Host only through the contract; its
//     integration tests may start a real Host);
//   - only src-main/electron/ (and the preload) import electron;
//   - src-preload/ imports only electron and the channel names;
//   - plugins/* and examples/* import only the plugin SDK (@seam/sdk*), npm packages and their own
//     files: a built-in plugin is shaped like one a user could install. Tests may also import
//     test-support/. Another bundle of plugins/ may be imported for its types (the service it
//     provides), by tests (which compose plugins), or when it is a library (no `seam` entry).
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import ts from 'typescript'

export interface ImportRef {
  specifier: string
  /** Erased at run time: `import type`, `export type`, type-only names, `import('x').T`, `declare module`. */
  typeOnly: boolean
  line: number
}

export interface Violation {
  file: string
  line: number
  specifier: string
  rule: string
}

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])

/** Every module reference in a TypeScript/TSX source. */
export function importsOf(fileName: string, text: string): ImportRef[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const refs: ImportRef[] = []
  const add = (node: ts.Node, literal: ts.Expression | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return
    refs.push({ specifier: literal.text, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause
      const named = clause?.namedBindings
      const allNamedTypeOnly =
        !!clause && !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)
      add(node, node.moduleSpecifier, !!clause && (clause.isTypeOnly || allNamedTypeOnly))
    } else if (ts.isExportDeclaration(node)) {
      const allNamedTypeOnly = !!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly)
      add(node, node.moduleSpecifier, node.isTypeOnly || allNamedTypeOnly)
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      add(node, node.name, true)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true)
    } else if (ts.isCallExpression(node)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require'
      if ((isImport || isRequire) && node.arguments.length > 0) add(node, node.arguments[0], false)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return refs
}

function isTestFile(rel: string): boolean {
  const base = path.posix.basename(rel)
  return /\.test\.tsx?$/.test(base) || /^test-[\w-]+\.tsx?$/.test(base)
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

export interface WallOptions {
  /** Repository root. */
  root: string
  /** npm packages the repository depends on (bare specifiers plugins may use). */
  packages: ReadonlySet<string>
}

/** The wall violations of one file (`rel`: its path from the root, with forward slashes). */
export function checkFile(rel: string, text: string, options: WallOptions): Violation[] {
  const violations: Violation[] = []
  const top = rel.split('/')[0]
  const bundleDir = top === 'plugins' || top === 'examples' ? rel.split('/').slice(0, 2).join('/') : undefined
  for (const ref of importsOf(rel, text)) {
    const fail = (rule: string) => violations.push({ file: rel, line: ref.line, specifier: ref.specifier, rule })
    const relative = ref.specifier.startsWith('.')
    const target = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(rel), ref.specifier)) : undefined
    const isElectron = ref.specifier === 'electron' || ref.specifier.startsWith('electron/')
    if (isElectron && !rel.startsWith('src-main/electron/') && !rel.startsWith('src-preload/')) fail('only src-main/electron/ and src-preload/ import electron')

    if (top === 'src-shared') {
      if (target?.startsWith('src-main/') || target?.startsWith('src-renderer/')) fail('src-shared/ imports neither src-main/ nor src-renderer/')
      if (NODE_BUILTINS.has(ref.specifier) && !isTestFile(rel)) fail('src-shared/ imports no Node built-in (it runs in the renderer too)')
    } else if (top === 'src-renderer') {
      // Its integration tests start a real Host to talk to; the app code never does.
      if (target?.startsWith('src-main/') && !isTestFile(rel)) fail('src-renderer/ never imports src-main/ (only the contract)')
    } else if (top === 'src-preload') {
      if (!isElectron && target !== 'src-shared/contract/channels') fail('src-preload/ imports only electron and the channel names')
    } else if (bundleDir) {
      if (target !== undefined) {
        if (target === bundleDir || target.startsWith(`${bundleDir}/`)) continue
        if (target.startsWith('test-support/') && isTestFile(rel)) continue
        const sibling = top === 'plugins' && /^plugins\/[^/]+/.exec(target)?.[0]
        if (sibling && (ref.typeOnly || isTestFile(rel) || isLibrary(path.join(options.root, sibling)))) continue
        fail(`${top}/* import only @seam/sdk and their own files`)
        continue
      }
      const name = packageName(ref.specifier)
      if (name === '@seam/sdk' || name === '@seam/client' || NODE_BUILTINS.has(ref.specifier)) continue
      if (!options.packages.has(name)) fail(`${top}/* import only @seam/sdk, their own files and npm packages (${name} is not a dependency)`)
    }
  }
  return violations
}

function isLibrary(dir: string): boolean {
  const file = path.join(dir, 'package.json')
  if (!existsSync(file)) return false
  return (JSON.parse(readFileSync(file, 'utf8')) as { seam?: unknown }).seam === undefined
}
