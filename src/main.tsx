import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setupBrowserPdf } from './browser/pdf';
import { App } from './ui/App';
import './ui/app.css';

setupBrowserPdf();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
