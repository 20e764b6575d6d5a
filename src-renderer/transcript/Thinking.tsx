// The model's thinking, collapsed by default.
export function Thinking({ text, live }: { text: string; live: boolean }) {
  return (
    <details className="thinking">
      <summary>{live ? 'Thinking…' : 'Thinking'}</summary>
      <div className="thinking-text">{text}</div>
    </details>
  )
}
