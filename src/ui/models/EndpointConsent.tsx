/**
 * Before any text goes to an embedding endpoint: exactly what is sent where ("All N units' text
 * (~T tokens, estimated) will be sent to <URL> (model M)"), worded by describeEmbeddingSend like
 * the generation endpoint's statement, and a confirm. Nothing is sent until the user confirms;
 * the confirm is remembered for that endpoint and model in this browser.
 */
import { useEffect } from 'react';
import { describeEmbeddingSend } from '../../core/embed/endpoint-choice';
import { ENDPOINT_DEFAULTS } from '../../core/embed/endpoint-embedder';
import { endpointSendPlan, setModel } from '../../state/controller';
import { cancelConsent, consentPlan, recordConsent, useEmbeddingEndpoint } from '../../state/embedding-endpoint';
import { errorText } from '../../state/messages';

export function EndpointConsent() {
  const ask = useEmbeddingEndpoint((s) => s.ask);
  const key = useEmbeddingEndpoint((s) => s.settings.apiKey);
  const choice = ask?.choice;
  useEffect(() => {
    if (!choice) return;
    let live = true;
    endpointSendPlan().then(
      (plan) => live && consentPlan(plan),
      (e: unknown) => live && consentPlan(null, errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [choice]);
  if (!ask?.choice.endpoint) return null;
  const endpoint = { ...ask.choice.endpoint, apiKey: key };
  const said = ask.plan ? describeEmbeddingSend(endpoint, ask.plan, ENDPOINT_DEFAULTS) : null;
  const usable = said !== null && !said.headline.startsWith('Nothing can be sent');
  return (
    <div className="m-consent" role="alertdialog" aria-label="Send text to the embedding endpoint?" aria-describedby="m-consent-what">
      {ask.error && <p role="alert">The units could not be counted: {ask.error}</p>}
      {!said && !ask.error && <p className="m-small">Counting what would be sent…</p>}
      {said && (
        <>
          <p id="m-consent-what" className="m-consent-head">
            {said.headline}
          </p>
          <ul className="m-small">
            {said.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </>
      )}
      <div className="m-actions">
        <button
          type="button"
          disabled={!usable}
          onClick={() => {
            recordConsent(ask.choice.endpoint!);
            setModel('embedder', ask.choice);
          }}
        >
          Send and embed
        </button>
        <button type="button" onClick={cancelConsent}>
          Cancel
        </button>
      </div>
    </div>
  );
}
