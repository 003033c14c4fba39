"""Drives Capstan with the official Kubernetes Python client (Debian's python3-kubernetes).

Run by test/e2e/python-client.test.ts as: python3 client_checks.py KUBECONFIG NAMESPACE.
Prints one JSON object: what each step observed, for the test to assert on. Any unexpected
exception ends the script with a traceback and a non-zero exit code.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, dynamic, utils, watch

config.load_kube_config(config_file=sys.argv[1])
ns = sys.argv[2]
core = client.CoreV1Api()
apps = client.AppsV1Api()
seen = {}

seen['version'] = client.VersionApi().get_code().git_version
core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
seen['namespaces'] = sorted(n.metadata.name for n in core.list_namespace().items)

meta = client.V1ObjectMeta(name='c1', labels={'app': 'x'})
created = core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=meta, data={'a': 'b'}))
seen['created'] = {'name': created.metadata.name, 'uid': created.metadata.uid,
                   'created_at': created.metadata.creation_timestamp.isoformat()}
seen['selected'] = [c.metadata.name for c in core.list_namespaced_config_map(ns, label_selector='app=x').items]
patched = core.patch_namespaced_config_map('c1', ns, {'data': {'c': 'd'}})
seen['patched'] = patched.data
stale = patched.metadata.resource_version
replaced = core.replace_namespaced_config_map(
    'c1', ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name='c1', resource_version=stale), data={'z': '1'}))
seen['replaced'] = replaced.data
try:
    core.replace_namespaced_config_map(
        'c1', ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name='c1', resource_version=stale), data={'z': '2'}))
    seen['conflict'] = None
except client.exceptions.ApiException as e:
    seen['conflict'] = {'status': e.status, 'reason': json.loads(e.body)['reason']}

template = client.V1PodTemplateSpec(
    metadata=client.V1ObjectMeta(labels={'app': 'web'}),
    spec=client.V1PodSpec(containers=[client.V1Container(name='c', image='nginx')]))
deployment = apps.create_namespaced_deployment(ns, client.V1Deployment(
    metadata=client.V1ObjectMeta(name='web'),
    spec=client.V1DeploymentSpec(selector=client.V1LabelSelector(match_labels={'app': 'web'}), template=template)))
seen['deployment'] = {'generation': deployment.metadata.generation, 'strategy': deployment.spec.strategy.type,
                      'pull_policy': deployment.spec.template.spec.containers[0].image_pull_policy}
seen['scaled'] = apps.patch_namespaced_deployment_scale('web', ns, {'spec': {'replicas': 3}}).spec.replicas


def write_later():
    time.sleep(0.3)
    for i in range(3):
        core.create_namespaced_config_map(
            ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=f'w{i}', labels={'watched': 'yes'})))


writer = threading.Thread(target=write_later)
writer.start()
events = []
w = watch.Watch()
# Selected by label: the namespace's kube-root-ca.crt may be created during the watch too.
for event in w.stream(core.list_namespaced_config_map, ns, resource_version=replaced.metadata.resource_version,
                      label_selector='watched=yes', timeout_seconds=10):
    events.append([event['type'], event['object'].metadata.name])
    if len(events) == 3:
        w.stop()
writer.join()
seen['watched'] = events

page = core.list_namespaced_config_map(ns, limit=2)
seen['page'] = {'items': len(page.items), 'has_continue': bool(page.metadata._continue)}
rest = core.list_namespaced_config_map(ns, limit=10, _continue=page.metadata._continue)
seen['rest'] = len(rest.items)
seen['total'] = len(core.list_namespaced_config_map(ns).items)

core.delete_namespaced_config_map('c1', ns)
try:
    core.read_namespaced_config_map('c1', ns)
    seen['after_delete'] = 200
except client.exceptions.ApiException as e:
    seen['after_delete'] = e.status

# The dynamic client finds resources through discovery (/api, /apis and each group-version).
resources = dynamic.DynamicClient(client.ApiClient()).resources
config_maps = resources.get(api_version='v1', kind='ConfigMap')
config_maps.create(body={'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'd1'}, 'data': {'k': 'v'}},
                   namespace=ns)
pods = resources.get(api_version='v1', kind='Pod')
seen['dynamic'] = {'resource': config_maps.name, 'namespaced': config_maps.namespaced,
                   'data': dict(config_maps.get(name='d1', namespace=ns).data),
                   'pod_subresources': sorted(pods.subresources.keys())}
service = {'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': 's1', 'namespace': ns},
           'spec': {'ports': [{'port': 80}], 'selector': {'app': 'web'}}}
utils.create_from_dict(client.ApiClient(), service)
seen['cluster_ip'] = core.read_namespaced_service('s1', ns).spec.cluster_ip

review = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
    resource_attributes=client.V1ResourceAttributes(verb='get', resource='pods', namespace=ns)))
seen['allowed'] = client.AuthorizationV1Api().create_self_subject_access_review(review).status.allowed

print(json.dumps(seen))
