// Keyboard movement in a tree view (WAI-ARIA APG "Tree View"): the visible nodes in order, and
// which node a key moves to or which node it expands or collapses.

export interface TreeNode {
  key: string
  parent: string | null
  /** Has children (can be expanded). */
  branch: boolean
}

export type TreeMove = { focus: string } | { expand: string; open: boolean } | null

/**
 * Down/Up: next/previous visible node; Right: expand a closed branch, else its first child;
 * Left: collapse an open branch, else its parent; Home/End: first/last node; Enter and Space
 * toggle a branch.
 */
export function treeMove(visible: readonly TreeNode[], current: string, key: string, isOpen: (key: string) => boolean): TreeMove {
  const at = visible.findIndex((node) => node.key === current)
  if (at < 0) return visible[0] ? { focus: visible[0].key } : null
  const node = visible[at]
  switch (key) {
    case 'ArrowDown':
      return at + 1 < visible.length ? { focus: visible[at + 1].key } : null
    case 'ArrowUp':
      return at > 0 ? { focus: visible[at - 1].key } : null
    case 'Home':
      return { focus: visible[0].key }
    case 'End':
      return { focus: visible[visible.length - 1].key }
    case 'ArrowRight':
      if (!node.branch) return null
      if (!isOpen(node.key)) return { expand: node.key, open: true }
      return visible[at + 1]?.parent === node.key ? { focus: visible[at + 1].key } : null
    case 'ArrowLeft':
      if (node.branch && isOpen(node.key)) return { expand: node.key, open: false }
      return node.parent !== null ? { focus: node.parent } : null
    case 'Enter':
    case ' ':
      return node.branch ? { expand: node.key, open: !isOpen(node.key) } : null
    default:
      return null
  }
}
