import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LanguageSwitch } from './LanguageSwitch';
import { Footer } from './Footer';
import { Logo } from './Logo';
import { WeChatWidget } from './WeChatWidget';

/** Frame of the public pages: logo + language switch, content, optional footer. */
export function PublicLayout({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  return (
    <div className="cc-auth">
      <header className="cc-header">
        <Link to="/" className="cc-logo">
          <Logo />
        </Link>
        <div className="cc-header-actions">
          <LanguageSwitch />
        </div>
      </header>
      <div className="cc-auth-body">{children}</div>
      {footer && <Footer />}
      <WeChatWidget />
    </div>
  );
}
