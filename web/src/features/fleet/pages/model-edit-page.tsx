import { useParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { ScreenHeader } from '../../../components/screen-header';
import { useModel } from '../api/models';
import { ModelForm } from '../components/model-form';
import { emptyModelValues, valuesFromModel } from '../components/model-form-values';

/** /settings/create-model and /settings/create-model/{modelId}. */
export default function ModelEditPage() {
  const { modelId } = useParams();
  const model = useModel(modelId);

  return (
    <>
      <ScreenHeader />
      {modelId && !model.data ? (
        model.isError ? null : <LoadingScreen inline />
      ) : model.data ? (
        <ModelForm key={`${model.data.id}:${model.data.version}`} model={model.data} initial={valuesFromModel(model.data)} />
      ) : (
        <ModelForm initial={emptyModelValues()} />
      )}
    </>
  );
}
