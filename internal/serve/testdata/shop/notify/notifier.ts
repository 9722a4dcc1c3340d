// Notifiers tell a customer that a payment went through.
export interface Notifier {
  send(message: string): void;
}

export class EmailNotifier implements Notifier {
  send(message: string): void {
    deliverMail(message);
  }
}

function deliverMail(body: string): void {
  console.log(body);
}
