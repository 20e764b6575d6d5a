// The composer's images: thumbnails with a remove button, the attach control (a file picker),
// and what the model in use says about images (a model without vision cannot take them: the
// control says so, and the Host refuses the send while the message stays here).
import { useRef } from 'react'
import { useModelStore } from '../model/model-store'
import { attachFiles, dataUrl } from './attachments'
import { composerActions, useComposerStore } from './composer-store'
import { X } from '../app/icons'

export function Attachments({ onProblem }: { onProblem(problem: string | null): void }) {
  const images = useComposerStore((state) => state.images)
  const current = useModelStore((state) => state.options?.current)
  const input = useRef<HTMLInputElement>(null)
  const noVision = current !== undefined && current !== null && !current.vision
  const hint = noVision ? `${current.model} does not accept images` : 'Attach images (PNG, JPEG, GIF, WebP)'
  return (
    <div className="composer-attachments">
      {images.length > 0 && (
        <ul className="thumbs" aria-label="Attached images">
          {images.map((image, index) => (
            <li key={index} className="thumb">
              <img src={dataUrl(image)} alt={image.name ?? `Image ${index + 1}`} />
              <button type="button" className="thumb-remove" aria-label={`Remove ${image.name ?? `image ${index + 1}`}`} onClick={() => composerActions.removeImage(index)}>
                <X className="icon-inline" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className={noVision ? 'attach no-vision' : 'attach'} aria-describedby="attach-hint" onClick={() => input.current?.click()}>
        Attach image
      </button>
      <span id="attach-hint" className={noVision ? 'attach-hint warn' : 'attach-hint muted'}>{noVision && images.length > 0 ? `${hint}: choose another model to send these` : hint}</span>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        multiple
        hidden
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = ''
          void attachFiles(files).then((problem) => onProblem(problem ?? null))
        }}
      />
    </div>
  )
}
