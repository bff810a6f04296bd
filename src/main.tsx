import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadOnceWhenIsolationWorkerIsReady } from './browser/isolation';
import { startLab } from './state/controller';
import { App } from './ui/App';
import './ui/app.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
reloadOnceWhenIsolationWorkerIsReady();
void startLab();
