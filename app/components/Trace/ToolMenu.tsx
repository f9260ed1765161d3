import type { MenuChoice } from './toolMenu.ts';

/** The choices the orchestrator had this turn, the one(s) it took highlighted. */
export function ToolMenu({ choices }: { choices: MenuChoice[] }) {
  if (choices.length === 0) return null;
  return (
    <div className="tool-menu">
      <span className="section-label">{choices.some((choice) => choice.chosen) ? 'Chose from' : 'Offered'}</span>
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
            {choice.chosen ? <span className="visually-hidden"> (chosen)</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
