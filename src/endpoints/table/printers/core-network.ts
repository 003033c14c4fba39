/**
 * Services and Endpoints. Services show the first cluster IP, the external address according to
 * the service type (load balancer ingress is `<pending>` until assigned), and ports as
 * `port[:nodePort]/protocol`.
 */
import { formatLabels } from '../cell-format.js';
import { num, objectAt, objects, path, strings, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrinterTable } from '../printer.js';

/** Load balancer ingress points, IP preferred over hostname, deduplicated and sorted. */
export function loadBalancerAddresses(status: unknown): string[] {
  const addresses = new Set<string>();
  for (const ingress of objects(objectAt(status).ingress)) {
    const address = text(ingress.ip) !== '' ? text(ingress.ip) : text(ingress.hostname);
    if (address !== '') addresses.add(address);
  }
  return [...addresses].sort();
}

function externalIP(service: JsonObject): string {
  const spec = objectAt(service.spec);
  const externalIPs = strings(spec.externalIPs);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const balancer = loadBalancerAddresses(path(service, 'status', 'loadBalancer'));
      if (externalIPs.length > 0) return [...balancer, ...externalIPs].join(',');
      return balancer.length > 0 ? balancer.join(',') : '<pending>';
    }
    case 'ExternalName':
      return text(spec.externalName);
    default:
      return '<unknown>';
  }
}

function portsText(ports: unknown): string {
  const rendered = objects(ports).map((p) =>
    num(p.nodePort) > 0 ? `${num(p.port)}:${num(p.nodePort)}/${text(p.protocol)}` : `${num(p.port)}/${text(p.protocol)}`);
  return rendered.length === 0 ? '<none>' : rendered.join(',');
}

/** Up to three `ip:port` (or bare IP for port-less subsets) entries, then "+ N more...". */
function endpointsText(endpoints: JsonObject): string {
  const subsets = objects(endpoints.subsets);
  if (subsets.length === 0) return '<none>';
  const entries: string[] = [];
  for (const subset of subsets) {
    const addresses = objects(subset.addresses).map((a) => text(a.ip));
    const ports = objects(subset.ports);
    if (ports.length === 0) entries.push(...addresses);
    for (const port of ports) entries.push(...addresses.map((ip) => hostPort(ip, num(port.port))));
  }
  const shown = entries.slice(0, 3).join(',');
  return entries.length > 3 ? `${shown} + ${entries.length - 3} more...` : shown;
}

/** Go's net.JoinHostPort: IPv6 addresses are bracketed. */
function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Printers keyed by "group/resource". */
export const coreNetworkPrinters: PrinterTable = {
  '/services': cellsPrinter((service) => {
    const spec = objectAt(service.spec);
    return {
      Type: text(spec.type),
      'Cluster-IP': strings(spec.clusterIPs)[0] ?? '<none>',
      'External-IP': externalIP(service),
      'Port(s)': portsText(spec.ports),
      Selector: formatLabels(spec.selector),
    };
  }),
  '/endpoints': cellsPrinter((endpoints) => ({ Endpoints: endpointsText(endpoints) })),
};
