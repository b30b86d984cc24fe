import { useId } from 'react';
import { quickstartSteps, type QuickstartInput } from './quickstart';

export type AgentQuickstartProps = QuickstartInput;

/** The quickstart: numbered CLI commands with this server and the user's names filled in. */
export function AgentQuickstart(props: AgentQuickstartProps) {
  const headingId = useId();
  return (
    <section className="cf-card cf-quickstart" aria-labelledby={headingId}>
      <h2 id={headingId}>Quickstart</h2>
      <p className="cf-page__intro">Your code runs on your machine and connects to Confab with the agent's API key.</p>
      <ol className="cf-quickstart__steps">
        {quickstartSteps(props).map((step) => (
          <li key={step.command}>
            <p className="cf-quickstart__title">{step.title}</p>
            <pre className="cf-quickstart__command">
              <code>{step.command}</code>
            </pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
