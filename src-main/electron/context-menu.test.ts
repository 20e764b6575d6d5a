// The window's context menu (issue 30): spelling suggestions that replace the word, copy and paste
// where Electron's editFlags allow them.
import type { ContextMenuParams, MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { contextMenuTemplate, type MenuParams } from './context-menu'

const flags: ContextMenuParams['editFlags'] = { canUndo: false, canRedo: false, canCut: true, canCopy: true, canPaste: true, canDelete: true, canSelectAll: true, canEditRichly: false }
const params = (over: Partial<MenuParams>): MenuParams => ({ isEditable: false, selectionText: '', misspelledWord: '', dictionarySuggestions: [], editFlags: flags, linkURL: '', ...over })

function run() {
  const done: string[] = []
  const actions = {
    replaceMisspelling: (word: string) => done.push(`replace:${word}`),
    addToDictionary: (word: string) => done.push(`learn:${word}`),
    copyText: (text: string) => done.push(`copy:${text}`)
  }
  return { done, actions }
}
const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.()
const names = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role ?? item.label ?? item.type)

describe('context menu (issue 30)', () => {
  it('in the composer over a misspelled word: suggestions first, then cut, copy, paste', () => {
    const { done, actions } = run()
    const items = contextMenuTemplate(params({ isEditable: true, misspelledWord: 'recieve', dictionarySuggestions: ['receive', 'relieve'] }), actions)
    expect(names(items)).toEqual(['receive', 'relieve', 'Add to Dictionary', 'separator', 'cut', 'copy', 'paste', 'separator', 'selectAll'])
    click(items[0])
    click(items[2])
    expect(done).toEqual(['replace:receive', 'learn:recieve'])
  })

  it('says when there is no guess', () => {
    const items = contextMenuTemplate(params({ isEditable: true, misspelledWord: 'xqzt' }), run().actions)
    expect(items[0]).toEqual({ label: 'No Guesses Found', enabled: false })
  })

  it('over selected transcript text: copy only; paste greyed out where the clipboard is empty', () => {
    expect(names(contextMenuTemplate(params({ selectionText: 'npm test' }), run().actions))).toEqual(['copy', 'separator', 'selectAll'])
    const editable = contextMenuTemplate(params({ isEditable: true, editFlags: { ...flags, canPaste: false } }), run().actions)
    expect(editable.find((item) => item.role === 'paste')?.enabled).toBe(false)
  })

  it('over a link: Copy Link copies its URL', () => {
    const { done, actions } = run()
    const items = contextMenuTemplate(params({ linkURL: 'https://example.com/docs' }), actions)
    click(items.find((item) => item.label === 'Copy Link'))
    expect(done).toEqual(['copy:https://example.com/docs'])
  })
})
