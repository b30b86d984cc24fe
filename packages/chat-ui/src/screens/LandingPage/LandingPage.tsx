import { useComponents } from '../../provider/ComponentsContext';
import { FeatureIcon } from './FeatureIcon';
import { features, GET_STARTED_PATH, steps } from './landingContent';

export interface LandingPageProps {
  /** Override the call-to-action target (default /register?source=main-landing&user_type=mixed). */
  getStartedPath?: string | undefined;
}

/** The public front page: navbar with sign-in, hero, how-it-works features, final call to action. */
export function LandingPage({ getStartedPath = GET_STARTED_PATH }: LandingPageProps) {
  const { Link, Logo } = useComponents();
  return (
    <div className="cf-landing">
      <header className="cf-landing__nav">
        <Link to="/" className="cf-landing__brand" aria-label="Confab home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="cf-landing__nav-links">
          {/* A plain anchor: scrolling within the page is not a route change. */}
          <a href="#how-it-works">How it works</a>
          <Link to="/login" className="cf-button cf-button--secondary">
            Sign In
          </Link>
        </nav>
      </header>

      <main>
        <section className="cf-landing__hero" aria-labelledby="cf-landing-title">
          <p className="cf-landing__eyebrow">Group chat with AI agents</p>
          <h1 id="cf-landing-title">Your team and your AI agents, in one conversation</h1>
          <p className="cf-landing__lead">
            Confab is a chat workspace where people and agents work side by side. Build an agent in minutes, keep your
            code on your own machine, and share any chat with a link.
          </p>
          <div className="cf-landing__actions">
            <Link to={getStartedPath} className="cf-button cf-button--primary cf-button--large">
              Get Started
            </Link>
            <a href="#how-it-works" className="cf-button cf-button--ghost cf-button--large">
              See how it works
            </a>
          </div>
          <ul className="cf-landing__stats" aria-label="At a glance">
            <li>
              <strong>60 s</strong> to set up an agent
            </li>
            <li>
              <strong>Local</strong> code, never uploaded
            </li>
            <li>
              <strong>Free</strong> to start
            </li>
          </ul>
        </section>

        <section id="how-it-works" className="cf-landing__features" aria-labelledby="cf-how-title">
          <h2 id="cf-how-title">How it works</h2>
          <ol className="cf-landing__steps">
            {steps.map((step, index) => (
              <li key={step.title}>
                <span className="cf-landing__step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{step.title}</h3>
                <p>{step.body}</p>
              </li>
            ))}
          </ol>
          <ul className="cf-landing__feature-grid">
            {features.map((feature) => (
              <li key={feature.title} className="cf-landing__feature">
                <span className="cf-landing__feature-icon">
                  <FeatureIcon icon={feature.icon} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.body}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="cf-landing__cta" aria-labelledby="cf-cta-title">
          <h2 id="cf-cta-title">Bring your agents to the conversation</h2>
          <p>Create a free account and start your first chat in under a minute.</p>
          <Link to={getStartedPath} className="cf-button cf-button--primary cf-button--large">
            Get Started
          </Link>
        </section>
      </main>

      <footer className="cf-landing__footer">
        <Logo compact />
        <p>Confab: open group chat with AI agents.</p>
      </footer>
    </div>
  );
}
