import { PLAN_ACTIONS, planSummary, type Plan, type PlanAction } from '../logic/plan.js';

const MARK: Record<PlanAction, string> = { created: '+', updated: '~', pruned: '-', unchanged: '=' };
const TITLE: Record<PlanAction, string> = { created: 'Created', updated: 'Updated', pruned: 'Pruned', unchanged: 'Unchanged' };

/** The plan of a stack apply, grouped: + created, ~ updated (restart marked), - pruned, = unchanged. */
export function PlanView({ plan, done }: { plan: Plan; done: boolean }) {
  return (
    <div className="plan" aria-label={done ? 'Applied' : 'Plan'}>
      <p className="plan-summary">
        <b>{done ? 'Applied' : 'Dry run'}:</b> {planSummary(plan, done)}
      </p>
      {PLAN_ACTIONS.map((action) =>
        plan.groups[action].length ? (
          <div key={action} className={`plan-group plan-${action}`}>
            <h3>
              {TITLE[action]} ({plan.groups[action].length})
            </h3>
            <ul>
              {plan.groups[action].map((item) => (
                <li key={item.name}>
                  <span className="plan-mark" aria-hidden="true">
                    {MARK[action]}
                  </span>{' '}
                  {item.name}
                  {item.restart && <span className="badge tone-busy">restarts</span>}
                </li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
      {plan.other.length > 0 && (
        <pre className="code">{plan.other.join('\n')}</pre>
      )}
    </div>
  );
}
