import type { MenuChoice } from './toolMenu.ts';

/** The choices the orchestrator had this turn, the one(s) it took highlighted; with `figures`
 * (presenter view), each alias's price and average latency on its chip, so "why this one" shows. */
export function ToolMenu({ choices, figures = false }: { choices: MenuChoice[]; figures?: boolean }) {
  if (choices.length === 0) return null;
  const priced = figures && choices.some((choice) => choice.figures);
  return (
    <div className={`tool-menu${priced ? ' priced' : ''}`}>
      <span className="section-label">
        {choices.some((choice) => choice.chosen) ? 'Chose from' : 'Offered'}
        {priced ? <span className="menu-legend"> ($ in / out per M tokens · average latency)</span> : null}
      </span>
      <ul aria-label="Tool menu">
        {choices.map((choice) => (
          <li
            key={`${choice.tool}/${choice.alias ?? ''}`}
            className={choice.chosen ? 'chosen' : undefined}
            aria-current={choice.chosen ? 'true' : undefined}
            title={choice.about}
          >
            <span className="menu-tool">{choice.tool}</span>
            {choice.alias ? <span className="menu-alias"> {choice.alias}</span> : null}
            {priced && choice.figures ? (
              <span className="menu-figures">
                {' '}
                <span className="menu-price">{choice.figures.price}</span> · <span className="menu-latency">{choice.figures.latency}</span>
              </span>
            ) : null}
            {choice.chosen ? <span className="visually-hidden"> (chosen)</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
