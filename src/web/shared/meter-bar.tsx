/**
 * One labelled meter: a native <meter> when there is a limit (screen readers announce value and range),
 * plain text when there is none (cost, an unbounded cap). The fill is monochrome (styles.css): colour
 * belongs to run states (run-states.tsx) and means nothing else.
 */
export function MeterBar(props: {
  readonly id: string;
  readonly label: string;
  readonly value: number;
  readonly limit: number | undefined;
  readonly text: string;
}) {
  const { id, label, value, limit, text } = props;
  const bounded = limit !== undefined && limit > 0;
  return (
    <div className="meter" data-meter={id}>
      <span className="meter-label" id={`${id}-label`}>
        {label}
      </span>
      {bounded ? (
        <meter
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-text`}
          min={0}
          max={limit}
          value={Math.min(value, limit)}
        />
      ) : (
        <span className="meter-unbounded" aria-hidden="true" />
      )}
      <span className="meter-text" id={`${id}-text`} data-value={value}>
        {text}
      </span>
    </div>
  );
}
