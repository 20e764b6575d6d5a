// Images pasted, dropped or picked into the composer: read as base64 and checked against the same
// caps the Host applies (src-shared/session/attachments.ts), so a problem is said at once, naming
// the file, and the message is never sent half.
import { IMAGE_MEDIA_TYPES, imagesProblem, type ImageAttachment, type ImageMediaType } from '../../src-shared/session/attachments'
import { composerActions, useComposerStore } from './composer-store'

function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(url.slice(url.indexOf(',') + 1))
    }
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'))
    reader.readAsDataURL(file)
  })
}

/** Adds the image files among `files` to the composer; returns a problem to show, if any. */
export async function attachFiles(files: readonly File[]): Promise<string | undefined> {
  if (files.length === 0) return undefined
  const added: ImageAttachment[] = []
  for (const file of files) {
    if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(file.type)) {
      return `${file.name || 'That file'} is not an image Seam can send (PNG, JPEG, GIF or WebP).`
    }
    added.push({ mediaType: file.type as ImageMediaType, data: await readBase64(file), ...(file.name ? { name: file.name } : {}) })
  }
  const all = [...useComposerStore.getState().images, ...added]
  const problem = imagesProblem(all)
  if (problem) return problem
  composerActions.setImages(all)
  return undefined
}

/** The files a paste or drop carries. */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return []
  const files = [...data.files]
  if (files.length > 0) return files
  return [...data.items].flatMap((item) => (item.kind === 'file' ? [item.getAsFile()].filter((f): f is File => f !== null) : []))
}

export function dataUrl(image: Pick<ImageAttachment, 'mediaType' | 'data'>): string {
  return `data:${image.mediaType};base64,${image.data}`
}
