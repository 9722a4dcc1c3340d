import React, { useState } from 'react';
import styles from './Button.module.css';

interface Props {
  label: string;
  onClick?: () => void;
}

// A button.
export function Button({ label, onClick }: Props) {
  const [count, setCount] = useState(0);
  const handle = () => {
    setCount(count + 1);
    onClick?.();
  };
  return <button className={styles.btn} onClick={handle}>{label}</button>;
}

export default class Panel extends React.Component<Props> {
  render() {
    return <div>{this.props.label}</div>;
  }
}
