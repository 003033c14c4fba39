/**
 * networking.k8s.io (ingresses, ingress classes, network policies, service CIDRs, IP addresses)
 * and discovery.k8s.io endpoint slices.
 */
import { formatLabelSelector, listWithMore } from '../cell-format.js';
import { list, objects, optionalObject, optionalText, path, strings, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';
import { loadBalancerAddresses } from './core-network.js';

/** Up to three rule hosts, "*" when no rule names one; "+ N more..." counts all remaining rules. */
function ingressHosts(ingress: JsonObject): string {
  const rules = objects(path(ingress, 'spec', 'rules'));
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) {
      more = true;
      break;
    }
    if (text(rule.host) !== '') hosts.push(text(rule.host));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

function ingressCells(ingress: JsonObject): PrintedCells {
  return {
    Class: optionalText(path(ingress, 'spec', 'ingressClassName')) ?? '<none>',
    Hosts: ingressHosts(ingress),
    Address: loadBalancerAddresses(path(ingress, 'status', 'loadBalancer')).join(','),
    Ports: list(path(ingress, 'spec', 'tls')).length > 0 ? '80, 443' : '80',
  };
}

function ingressClassParameters(ingressClass: JsonObject): string {
  const parameters = optionalObject(path(ingressClass, 'spec', 'parameters'));
  if (parameters === undefined) return '<none>';
  const group = optionalText(parameters.apiGroup);
  const kind = group === undefined ? text(parameters.kind) : `${text(parameters.kind)}.${group}`;
  return `${kind}/${text(parameters.name)}`;
}

/** `resource.group[/namespace]/name` of the owner, lowercased, or "<none>". */
function ipAddressParent(ipAddress: JsonObject): string {
  const parent = optionalObject(path(ipAddress, 'spec', 'parentRef'));
  if (parent === undefined) return '<none>';
  const group = text(parent.group);
  let out = (group === '' ? text(parent.resource) : `${text(parent.resource)}.${group}`).toLowerCase();
  if (text(parent.namespace) !== '') out += `/${text(parent.namespace)}`;
  return `${out}/${text(parent.name)}`;
}

function endpointSliceCells(slice: JsonObject): PrintedCells {
  const ports = objects(slice.ports).map((p) => {
    if (typeof p.port === 'number') return String(p.port);
    return optionalText(p.name) ?? '*';
  });
  const addresses = objects(slice.endpoints).flatMap((e) => strings(e.addresses));
  return {
    AddressType: text(slice.addressType),
    Ports: listWithMore(ports, 3, '<unset>'),
    Endpoints: listWithMore(addresses, 3, '<unset>'),
  };
}

/** Printers keyed by "group/resource". */
export const networkingPrinters: PrinterTable = {
  'networking.k8s.io/ingresses': cellsPrinter(ingressCells),
  'networking.k8s.io/ingressclasses': cellsPrinter((ingressClass) => ({
    Controller: text(path(ingressClass, 'spec', 'controller')),
    Parameters: ingressClassParameters(ingressClass),
  })),
  'networking.k8s.io/networkpolicies': cellsPrinter((policy) => ({
    // podSelector is a required struct, never nil: an absent one selects everything.
    'Pod-Selector': formatLabelSelector(path(policy, 'spec', 'podSelector') ?? {}),
  })),
  'networking.k8s.io/servicecidrs': cellsPrinter((cidr) => ({ CIDRs: strings(path(cidr, 'spec', 'cidrs')).join(',') })),
  'networking.k8s.io/ipaddresses': cellsPrinter((ip) => ({ ParentRef: ipAddressParent(ip) })),
  'discovery.k8s.io/endpointslices': cellsPrinter(endpointSliceCells),
};
