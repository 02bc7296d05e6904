export * from './TextInput';
export * from './Toggle';
export * from './SelectInput';
export * from './ColorPicker';
export * from './DateRangePicker';
export * from './ImageUpload';
export * from './StatusBadge';
export * from './GroupedCheckboxes';
