import MessageContent from '@/pages/UMS/components/MessageContent';
import { render, screen } from '@testing-library/react';

describe('MessageContent', () => {
  it('renders markdown but never the markup or javascript: links a message carries', () => {
    render(
      <MessageContent
        type="markdown"
        content={'## 告警\n<img src=x onerror=alert(1)><script>alert(2)</script>\n[点我](javascript:alert(3))'}
      />,
    );
    const box = screen.getByTestId('message-content');
    expect(box.querySelector('h2')).toHaveTextContent('告警');
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('img')).toBeNull();
    expect(box.querySelector('a[href^="javascript"]')).toBeNull();
    expect(box).toHaveTextContent('<script>alert(2)</script>');
  });

  it('shows text messages as written', () => {
    render(<MessageContent type="text" content={'**不是** markdown'} />);
    expect(screen.getByTestId('message-content')).toHaveTextContent('**不是** markdown');
  });
});
