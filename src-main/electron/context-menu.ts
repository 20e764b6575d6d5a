// The right-click menu of the app window: the spell checker's suggestions for a misspelled word
// (and "Add to Dictionary"), then Cut, Copy, Paste and Select All as the spot allows (Electron's
// editFlags). A link gets "Copy Link". Built from Electron's ContextMenuParams; the template is a
// plain function so it is tested without a window.
import type { ContextMenuParams, MenuItemConstructorOptions } from 'electron'

/** What the menu's items do: the WebContents editing commands and the session's dictionary. */
export interface MenuActions {
  replaceMisspelling(word: string): void
  addToDictionary(word: string): void
  copyText(text: string): void
}

export type MenuParams = Pick<ContextMenuParams, 'isEditable' | 'selectionText' | 'misspelledWord' | 'dictionarySuggestions' | 'editFlags' | 'linkURL'>

export function contextMenuTemplate(params: MenuParams, actions: MenuActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = []
  if (params.misspelledWord) {
    const suggestions = params.dictionarySuggestions.slice(0, 5)
    for (const suggestion of suggestions) items.push({ label: suggestion, click: () => actions.replaceMisspelling(suggestion) })
    if (suggestions.length === 0) items.push({ label: 'No Guesses Found', enabled: false })
    items.push({ label: 'Add to Dictionary', click: () => actions.addToDictionary(params.misspelledWord) })
    items.push({ type: 'separator' })
  }
  const flags = params.editFlags
  if (params.isEditable) items.push({ role: 'cut', enabled: flags.canCut })
  if (params.isEditable || params.selectionText.trim() !== '') items.push({ role: 'copy', enabled: flags.canCopy })
  if (params.isEditable) items.push({ role: 'paste', enabled: flags.canPaste })
  if (params.linkURL) items.push({ label: 'Copy Link', click: () => actions.copyText(params.linkURL) })
  if (items.length > 0 && items.at(-1)?.type !== 'separator') items.push({ type: 'separator' })
  items.push({ role: 'selectAll', enabled: flags.canSelectAll })
  return items
}
