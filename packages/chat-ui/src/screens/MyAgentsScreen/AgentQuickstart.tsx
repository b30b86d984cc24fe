import { useEffect, useId, useState } from 'react';
import { constants } from '@confab/client';
import { Button } from '../../components/Button/Button';
import { copyToClipboard } from '../../internal/clipboard';
import { quickstartSteps, type QuickstartInput, type QuickstartStep } from './quickstart';

export interface AgentQuickstartProps extends QuickstartInput {
  /** Defaults to navigator.clipboard.writeText. */
  copyText?: (text: string) => Promise<void>;
}

/**
 * The quickstart: numbered shell commands with this server and the user's names filled in, each
 * with a Copy button and what it prints.
 */
export function AgentQuickstart({ copyText = copyToClipboard, ...input }: AgentQuickstartProps) {
  const headingId = useId();
  return (
    <section className="cf-card cf-quickstart" aria-labelledby={headingId}>
      <h2 id={headingId}>Quickstart</h2>
      <p className="cf-page__intro">
        Your code runs on your machine and connects to Confab with the agent's API key. You need Node.js 20 or later and npm; run these in a terminal, in
        order.
      </p>
      <ol className="cf-quickstart__steps">
        {quickstartSteps(input).map((step, index) => (
          <QuickstartItem key={step.command} step={step} number={index + 1} copyText={copyText} />
        ))}
      </ol>
      <p className="cf-quickstart__after">Then mention the agent in its dev room, or in a chat whose options allow developer agents.</p>
    </section>
  );
}

function QuickstartItem({ step, number, copyText }: { step: QuickstartStep; number: number; copyText: (text: string) => Promise<void> }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);

  useEffect(() => {
    if (copied === null) return undefined;
    const timer = setTimeout(() => setCopied(null), constants.copyConfirmationMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () =>
    copyText(step.command).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );

  return (
    <li className="cf-quickstart__step">
      <p className="cf-quickstart__title">{step.title}</p>
      <div className="cf-quickstart__line">
        <pre className="cf-quickstart__command" data-quickstart-command="">
          <code>{step.command}</code>
        </pre>
        <Button variant="secondary" onClick={copy} aria-label={`Copy step ${number}`}>
          Copy
        </Button>
      </div>
      <p className="cf-quickstart__output-label">It prints:</p>
      <pre className="cf-quickstart__output" data-quickstart-output="">
        <samp>{step.output}</samp>
      </pre>
      {step.hint !== undefined ? <p className="cf-quickstart__hint">{step.hint}</p> : null}
      <p className="cf-quickstart__copied" role="status">
        {copied === 'copied' ? 'Copied!' : copied === 'failed' ? 'Could not copy: select the command and copy it yourself.' : ''}
      </p>
    </li>
  );
}
