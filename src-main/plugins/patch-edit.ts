// Writes a user's choice to disable or enable a profile entry into their patch layer
// (<Seam home>/cordis.patch.yml), keeping the file's other rows and comments as they are.
import { isMap, isSeq, parseDocument, YAMLSeq } from 'yaml'

/** The patch text with `- id: <id>` / `disabled: <disabled>` as the entry's last say. */
export function setEntryDisabled(text: string, id: string, disabled: boolean): string {
  const doc = parseDocument(text.trim() ? text : '[]\n')
  if (doc.errors.length > 0) throw new Error(`cannot edit the patch file: ${doc.errors[0].message}`)
  let seq: YAMLSeq
  if (isSeq(doc.contents)) seq = doc.contents
  else if (doc.toJS() == null) {
    seq = new YAMLSeq()
    ;(doc as { contents: unknown }).contents = seq
  } else throw new Error('cannot edit the patch file: it is not a YAML list of rows')
  // A later row overrides an earlier one, so the last disable/enable row for this id decides;
  // reuse it when it is the file's last word on the entry, else append a new row.
  const lastForId = [...seq.items].reverse().find((item) => isMap(item) && item.get('id') === id)
  if (lastForId && isMap(lastForId) && lastForId.has('disabled') && !lastForId.has('config') && !lastForId.has('remove')) {
    lastForId.set('disabled', disabled)
  } else {
    seq.add(doc.createNode({ id, disabled }))
  }
  if (seq.flow) seq.flow = false
  return doc.toString()
}
